// nfstream's one option in the session wizards: the early-packet sequence length, offered only while nfstream is
// chosen, sent as `splt`, and left out (the engine's default) when untouched.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FeatureSetInfo } from "@tracemill/contracts";
import { describe, expect, it } from "vitest";
import { choose, mockUploadsEachTest, pcapBytes, renderApp, wizardServer } from "../test-utils.js";

const featureSets: FeatureSetInfo[] = ["tracemill", "nfstream"].map((name) => ({
  name,
  description: `${name}'s columns`,
  columns: [{ name: `${name}-column`, type: "int" }],
  defaults: {},
}));

mockUploadsEachTest();

const label = "nfstream: packets in the early-packet sequences";

describe("the sequence length of nfstream", () => {
  it("is offered while nfstream is chosen and sent as splt", async () => {
    const calls = wizardServer({ featureSets });
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "Sequences");
    await choose("Capture", "c.pcap", pcapBytes());
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
