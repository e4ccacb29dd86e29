// The static and resource pages: About, File Formats, capability descriptions, usage guide, Profile.
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, type Handler, jobPage, makeJob, renderApp } from "../test-utils.js";

afterEach(() => vi.unstubAllGlobals());

const signedIn: Record<string, Handler> = {
  "GET /api/auth/session": () => ({ body: alice }),
  "GET /api/jobs": (_, url) => ({ body: jobPage([makeJob({ id: "a" }), makeJob({ id: "b", status: "failed" })], url) }),
  "GET /api/files": () => ({
    body: [
      {
        id: "f",
        name: "day1.pcapng",
        size: 2048,
        sha256: "0".repeat(64),
        format: "pcapng",
        compression: null,
        createdAt: "2026-01-01T00:00:00Z",
        usedBy: [],
      },
    ],
  }),
};

describe("static and resource pages", () => {
  it("About states the purpose, the disclaimer and a contact with a code-hosting icon", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    renderApp("/ui/resources/about");
    expect(await screen.findByRole("heading", { name: "Purpose" })).toBeInTheDocument();
    expect(screen.getByText(/only for research and education/)).toHaveTextContent("Malicious use is prohibited");
    expect(screen.getByText(/only for research and education/)).toHaveTextContent("without warranty");
    expect(screen.getByText(/only for research and education/)).toHaveTextContent("fully responsible");
    const contact = screen.getByRole("link", { name: /tracemill\/tracemill/ });
    expect(contact.querySelector("svg")).not.toBeNull();
  });

  it("File Formats shows every file kind with its icon", async () => {
    fakeServer(signedIn);
    renderApp("/ui/resources/file/formats");
    const items = within(await screen.findByRole("list", { name: "File kinds" })).getAllByRole("listitem");
    expect(items.length).toBeGreaterThanOrEqual(11);
    for (const item of items) expect(within(item).getByRole("img")).toBeInTheDocument();
    expect(screen.getByText("Unified2 alert file")).toBeInTheDocument();
    expect(screen.getByText(/each n × 280 pixels/)).toBeInTheDocument();
  });

  it("Capability descriptions and the usage guide cover the seven capabilities", async () => {
    fakeServer({ "GET /api/auth/session": () => ({ body: {} }) });
    const view = renderApp("/ui/resources/capabilities");
    expect(await screen.findAllByRole("article")).toHaveLength(7);
    // The article follows the name's sound: "an Automated…", "a Feature…".
    expect(screen.getByRole("link", { name: "Start an Automated Traffic Labeling job" })).toHaveAttribute(
      "href",
      "/ui/extract/labeling",
    );
    expect(screen.getByRole("link", { name: "Start a Feature Extraction job" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Start a Grayscale Image Generator job" })).toBeInTheDocument();
    expect(screen.queryByText(/\bStart a [AEIOU]/)).toBeNull();
    view.unmount();
    renderApp("/ui/resources/usage");
    expect(await screen.findByText(/An account is needed/)).toBeInTheDocument();
    expect(screen.getAllByRole("listitem").filter((li) => li.closest("main"))).toHaveLength(7);
  });

  it("Profile shows the user, the jobs by status and the uploaded files", async () => {
    fakeServer(signedIn);
    renderApp("/ui/profile");
    expect(await screen.findByText("alice@example.org")).toBeInTheDocument();
    expect(await screen.findByText(/Failed: 1/)).toBeInTheDocument();
    expect(screen.getByText(/Succeeded: 1/)).toBeInTheDocument();
    const row = await screen.findByRole("row", { name: /day1\.pcapng/ });
    expect(row).toHaveTextContent("2.0 KiB");
  });
});
