import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { LibraryListing } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createdJob, renderApp, wizardServer } from "../test-utils.js";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const capture = {
  type: "capture" as const,
  name: "capture.pcap",
  path: "day1/capture.pcap",
  size: 7608,
  format: "pcap" as const,
  compression: null,
  modifiedAt: "2026-01-02T03:04:05.000Z",
  pending: false,
  info: {
    packets: 1234,
    first: "2004-09-16T00:00:01.000721000Z",
    last: "2004-09-16T00:00:01.028488000Z",
    duration: "0.027767000",
    linkTypes: [{ linkType: 1, name: "Ethernet", packets: 1234 }],
    complete: true,
  },
};

const folders: Record<string, LibraryListing> = {
  "lab/": {
    library: "lab",
    path: "",
    entries: [
      { type: "directory", name: "day1", path: "day1" },
      {
        ...capture,
        name: "big.pcapng.gz",
        path: "big.pcapng.gz",
        size: 3 * 1024 ** 3,
        format: "pcapng",
        compression: "gzip",
        pending: true,
        info: null,
      },
    ],
  },
  "lab/day1": { library: "lab", path: "day1", entries: [capture] },
  "archive/": { library: "archive", path: "", entries: [] },
};

/** A server with two libraries; `listings` may answer a folder differently (a pending entry read later). */
function server(listings: (key: string, asked: number) => LibraryListing | undefined = () => undefined) {
  const asked = new Map<string, number>();
  return wizardServer({
    routes: {
      "GET /api/libraries": () => ({ body: [{ name: "lab" }, { name: "archive" }] }),
      "GET /api/libraries/lab/entries": (_body, url) => answer(url),
      "GET /api/libraries/archive/entries": (_body, url) => answer(url),
    },
  });
  function answer(url: string) {
    const parsed = new URL(url, "http://localhost");
    const key = `${parsed.pathname.split("/")[3]}/${parsed.searchParams.get("path") ?? ""}`;
    const count = (asked.get(key) ?? 0) + 1;
    asked.set(key, count);
    if (key === "lab/day2")
      return { status: 404, body: { messages: ["lab/day2: no such file or folder in the library"] } };
    const body = listings(key, count) ?? folders[key];
    return body ? { body } : { status: 404, body: { messages: ["Not found"] } };
  }
}

async function openLibraryTab() {
  await userEvent.click(await screen.findByRole("tab", { name: "From a library" }));
}

describe("picking a capture from a library", () => {
  it("offers no library tab when the server has no library", async () => {
    const calls = wizardServer({ routes: { "GET /api/libraries": () => ({ body: [] }) } });
    renderApp("/ui/extract");
    expect(await screen.findByLabelText("Capture: choose a file")).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === "/api/libraries")).toBe(true));
    // The answer has arrived and been rendered by the time timers run again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("tablist")).not.toBeInTheDocument();
    expect(screen.queryByText("From a library")).not.toBeInTheDocument();
  });

  it("browses folders with breadcrumbs, shows what each capture holds, and sends the library file as the input", async () => {
    const calls = server();
    renderApp("/ui/extract");
    await userEvent.type(await screen.findByLabelText("Title"), "From the lab");
    await openLibraryTab();
    expect(screen.getByRole("tab", { name: "From a library" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Library")).toHaveValue("lab");
    const crumbs = screen.getByRole("navigation", { name: "Capture: folder" });
    expect(within(crumbs).getByText("lab")).toHaveAttribute("aria-current", "location");

    const top = await screen.findByRole("table", { name: "Folders and captures in lab" });
    const pending = within(top).getByRole("button", { name: "Use big.pcapng.gz" }).closest("tr") as HTMLElement;
    expect(
      within(pending)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["big.pcapng.gz", "3.00 GiB", "pcapng (gzip)", "reading…", "—"]);

    await userEvent.click(within(top).getByRole("button", { name: "Open folder day1" }));
    const day1 = await screen.findByRole("table", { name: "Folders and captures in lab/day1" });
    expect(calls.some((c) => c.path === "/api/libraries/lab/entries")).toBe(true);
    const row = within(day1).getByRole("button", { name: "Use capture.pcap" }).closest("tr") as HTMLElement;
    expect(
      within(row)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["capture.pcap", "7.4 KiB", "pcap", "1,234", "2004-09-16 00:00:01 UTC, 0.028 s"]);
    expect(within(crumbs).getByText("day1")).toHaveAttribute("aria-current", "location");

    await userEvent.click(within(row).getByRole("button", { name: "Use capture.pcap" }));
    expect(screen.getByTestId("picked-file")).toHaveTextContent("capture.pcap (7.4 KiB)");
    expect(row).toHaveClass("chosen");
    // Back to the top through the breadcrumbs.
    await userEvent.click(within(crumbs).getByRole("button", { name: "lab" }));
    expect(await screen.findByRole("table", { name: "Folders and captures in lab" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(await screen.findByRole("button", { name: "Create job" }));
    await waitFor(() => expect(createdJob(calls)).toBeDefined());
    expect(createdJob(calls)).toMatchObject({
      title: "From the lab",
      capability: "extract",
      inputs: { capture: { library: "lab", path: "day1/capture.pcap" } },
    });
  });

  it("asks again while captures are being read, until their info is there", async () => {
    server((key, asked) =>
      key === "lab/" && asked > 1
        ? {
            ...folders["lab/"],
            entries: [folders["lab/"].entries[0], { ...capture, name: "big.pcapng.gz", path: "big.pcapng.gz" }],
          }
        : undefined,
    );
    renderApp("/ui/extract");
    await openLibraryTab();
    const top = await screen.findByRole("table", { name: "Folders and captures in lab" });
    expect(within(top).getByText("reading…")).toBeInTheDocument();
    await waitFor(() => expect(within(top).getByText("1,234")).toBeInTheDocument(), { timeout: 5000 });
    expect(within(top).queryByText("reading…")).not.toBeInTheDocument();
  });

  it("moves between the tabs with the arrow keys, and switches libraries from the list", async () => {
    server();
    renderApp("/ui/extract");
    const upload = await screen.findByRole("tab", { name: "Upload or earlier job" });
    expect(upload).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel")).toContainElement(screen.getByLabelText("Capture: choose a file"));
    upload.focus();
    await userEvent.keyboard("{ArrowRight}");
    const library = screen.getByRole("tab", { name: "From a library" });
    expect(library).toHaveFocus();
    expect(library).toHaveAttribute("aria-selected", "true");
    expect(library).toHaveAttribute("tabindex", "0");
    expect(upload).toHaveAttribute("tabindex", "-1");
    expect(screen.getByRole("tabpanel", { name: "From a library" })).toContainElement(screen.getByLabelText("Library"));
    // Keyboard alone: Tab leaves the tab list for the panel, Enter opens a folder.
    await screen.findByRole("table", { name: "Folders and captures in lab" });
    await userEvent.tab();
    expect(screen.getByLabelText("Library")).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "Open folder day1" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByRole("table", { name: "Folders and captures in lab/day1" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "lab" })).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText("Library"), "archive");
    expect(await screen.findByText("No folders or captures here.")).toBeInTheDocument();
    expect(within(screen.getByRole("navigation", { name: "Capture: folder" })).getByText("archive")).toHaveAttribute(
      "aria-current",
      "location",
    );
    library.focus();
    await userEvent.keyboard("{Home}");
    expect(upload).toHaveFocus();
    expect(upload).toHaveAttribute("aria-selected", "true");
  });

  it("says why a folder cannot be listed", async () => {
    server((key) =>
      key === "lab/" ? { ...folders["lab/"], entries: [{ type: "directory", name: "day2", path: "day2" }] } : undefined,
    );
    renderApp("/ui/extract");
    await openLibraryTab();
    await userEvent.click(await screen.findByRole("button", { name: "Open folder day2" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("lab/day2: no such file or folder in the library");
  });
});
