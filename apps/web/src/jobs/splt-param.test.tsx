// nfstream's one option in the session wizards: the early-packet sequence length, offered only while nfstream is
// chosen, sent as `splt`, and left out (the engine's default) when untouched.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "../api/client.js";
import { alice, fakeServer, jobPage, noneStored, renderApp, uploadedAs } from "../test-utils.js";

const pcapHeader = new Uint8Array([
  0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0, 0, 0,
]);
const featureSets = ["tracemill", "nfstream"].map((name) => ({
  name,
  description: `${name}'s columns`,
  columns: [{ name: `${name}-column`, type: "int" }],
  defaults: {},
}));

beforeEach(() => {
  vi.spyOn(api, "upload").mockImplementation(async (file) => uploadedAs(file, "file-1"));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const label = "nfstream: packets in the early-packet sequences";

describe("the sequence length of nfstream", () => {
  it("is offered while nfstream is chosen and sent as splt", async () => {
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage([], url) }),
      "GET /api/feature-sets": () => ({ body: featureSets }),
      "POST /api/files/lookup": noneStored,
      "POST /api/jobs": (body) => ({ status: 201, body: { ...(body as object), id: "job-1" } }),
    });
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "Sequences");
    await userEvent.upload(screen.getByLabelText("Capture: choose a file"), new File([pcapHeader], "c.pcap"));
    await screen.findByText(/c\.pcap/);
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await screen.findByRole("group", { name: "Feature sets" });
    await userEvent.click(screen.getByText("Advanced parameters"));
    expect(screen.queryByLabelText(label)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("checkbox", { name: "nfstream" }));
    const field = screen.getByLabelText(label) as HTMLInputElement;
    // Untouched, it shows the engine's default and sends nothing.
    expect([field.value, field.placeholder]).toEqual(["", "32"]);
    await userEvent.type(field, "8");
    await userEvent.click(screen.getByRole("button", { name: "Create job" }));
    const posted = () => calls.filter((c) => c.method === "POST" && c.path === "/api/jobs");
    await waitFor(() => expect(posted()).toHaveLength(1));
    expect(posted()[0].body).toMatchObject({ params: { features: ["tracemill", "nfstream"], splt: 8 } });
  });
});
