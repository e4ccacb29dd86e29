// My Jobs and Shared Jobs as a table: what each row shows, sorting by the headers, search and filters kept in the
// address, paging, the row actions, and the switch to cards remembered for the next visit. The fake server below
// answers pages the way the API does (filter, sort, slice), so the rows' order on screen is what is asserted.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Job } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, type Handler, jobPage, makeJob, renderApp } from "../test-utils.js";
import { JOBS_LOOK_KEY } from "./job-list-controls.js";

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const input = (name: string) => ({
  id: name,
  name,
  size: 100,
  sha256: "0".repeat(64),
  format: "pcap" as const,
  compression: null,
  createdAt: "",
  role: "capture" as const,
});

const jobs: Job[] = [
  makeJob({
    id: "w",
    title: "Web sessions",
    inputs: [input("web.pcap")],
    sessions: 1234,
    outputs: [
      { name: "features.csv", kind: "features-csv", size: 1536 },
      { name: "summary.json", kind: "summary-json", size: 512 },
    ],
    startedAt: "2026-01-01T10:00:00Z",
    finishedAt: "2026-01-01T10:03:05Z",
  }),
  makeJob({
    id: "l",
    title: "alerts on dns",
    capability: "label",
    inputs: [input("dns.pcap"), input("eve.json")],
    sessions: 8,
    warnings: [{ code: "single-class", message: "All 8 sessions have the same label." }],
    createdAt: "2026-01-01T11:00:00Z",
  }),
  makeJob({
    id: "m",
    title: "Mixed",
    capability: "merge",
    status: "failed",
    error: "background.pcap: damaged capture at byte 60",
    inputs: [input("a.pcap"), input("b.pcap"), input("c.pcap"), input("d.pcap")],
    createdAt: "2026-01-01T12:00:00Z",
    finishedAt: "2026-01-01T12:00:00.850Z",
    startedAt: "2026-01-01T12:00:00Z",
  }),
  makeJob({
    id: "r",
    title: "Running images",
    capability: "images",
    status: "running",
    progress: { percent: 41.6, stage: "sessions" },
    inputs: [input("web.pcap")],
    createdAt: "2026-01-01T13:00:00Z",
    finishedAt: null,
  }),
];

const outcome = (job: Job) => (job.status === "succeeded" && job.warnings.length > 0 ? "warning" : job.status);

/** GET /api/jobs as the API answers it: search, filters, sort (empty values last), one page. */
function listed(all: () => Job[]): Handler {
  return (_, url) => {
    const query = new URL(url, "http://localhost").searchParams;
    const q = query.get("q")?.toLowerCase();
    let rows = all().filter(
      (job) =>
        (!q || job.title.toLowerCase().includes(q) || job.inputs.some((i) => i.name.includes(q))) &&
        (!query.get("capability") || job.capability === query.get("capability")) &&
        (!query.get("status") || outcome(job) === query.get("status")),
    );
    const direction = query.get("order") === "asc" ? 1 : -1;
    const sort = query.get("sort");
    if (sort === "title") rows = [...rows].sort((a, b) => direction * a.title.localeCompare(b.title));
    if (sort === "sessions") {
      rows = [...rows].sort((a, b) =>
        a.sessions === null || b.sessions === null
          ? Number(a.sessions === null) - Number(b.sessions === null)
          : direction * (a.sessions - b.sessions),
      );
    }
    if (sort === "created") rows = [...rows].sort((a, b) => direction * a.createdAt.localeCompare(b.createdAt));
    const offset = Number(query.get("offset") ?? 0);
    const limit = Number(query.get("limit") ?? 50);
    return { body: jobPage(rows.slice(offset, offset + limit), url, rows.length) };
  };
}

/** The rows' titles in the order shown (each row's header cell). */
const titlesShown = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getByRole("rowheader").textContent);

function listServer(all: () => Job[] = () => jobs) {
  const urls: string[] = [];
  const handler = listed(all);
  const calls = fakeServer({
    "GET /api/auth/session": () => ({ body: alice }),
    "GET /api/jobs": (body, url) => {
      urls.push(url);
      return handler(body, url);
    },
  });
  const lastUrl = () => new URL(urls.at(-1)!, "http://localhost").searchParams;
  return { calls, lastUrl };
}

describe("My Jobs as a table", () => {
  it("shows each job as a row: title to its details, capability, status in words, inputs and figures", async () => {
    listServer();
    renderApp("/ui/dataSets");
    const table = await screen.findByRole("table", { name: "My jobs" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Title", "Capability", "Status", "Inputs", "Sessions", "Size", "Created", "Runtime", "Actions"]);
    const cells = (title: string) =>
      within(screen.getByRole("row", { name: new RegExp(`^${title}`) }))
        .getAllByRole("cell")
        .map((td) => td.textContent);
    expect(screen.getByRole("link", { name: "Web sessions" })).toHaveAttribute("href", "/ui/details?id=w");
    // 1536 + 512 bytes = 2.0 KiB; 3 min 5 s from start to end.
    expect(cells("Web sessions").slice(0, 5)).toEqual([
      "Feature Extraction",
      "Succeeded",
      "web.pcap",
      "1,234",
      "2.0 KiB",
    ]);
    expect(cells("Web sessions")[6]).toBe("3 min 5 s");
    expect(cells("alerts on dns").slice(0, 5)).toEqual([
      "Automated Traffic Labeling",
      "Succeeded with warnings",
      "dns.pcap, eve.json",
      "8",
      "—",
    ]);
    expect(cells("Mixed").slice(0, 3)).toEqual([
      "Controlled Traffic Aggregation",
      "Failed",
      "a.pcap, b.pcap, c.pcap +1 more",
    ]);
    expect(cells("Mixed")[6]).toBe("850 ms");
    expect(cells("Running images").slice(1, 2)).toEqual(["Running 42 %"]);
    expect(cells("Running images")[6]).toBe("—");
  });

  it("sorts by a header: the server's order is shown, aria-sort says it, a second click turns it round", async () => {
    const { lastUrl } = listServer();
    renderApp("/ui/dataSets");
    await screen.findByRole("table", { name: "My jobs" });
    expect(titlesShown()).toEqual(["Running images", "Mixed", "alerts on dns", "Web sessions"]);
    expect(screen.getByRole("columnheader", { name: "Created" })).toHaveAttribute("aria-sort", "descending");
    await userEvent.click(screen.getByRole("button", { name: "Title" }));
    await waitFor(() => expect(titlesShown()).toEqual(["alerts on dns", "Mixed", "Running images", "Web sessions"]));
    expect(screen.getByRole("columnheader", { name: "Title" })).toHaveAttribute("aria-sort", "ascending");
    expect(screen.getByRole("columnheader", { name: "Created" })).not.toHaveAttribute("aria-sort");
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets?sort=title");
    await userEvent.click(screen.getByRole("button", { name: "Title" }));
    await waitFor(() => expect(titlesShown()).toEqual(["Web sessions", "Running images", "Mixed", "alerts on dns"]));
    expect(screen.getByRole("columnheader", { name: "Title" })).toHaveAttribute("aria-sort", "descending");
    // Counts start largest first; jobs without sessions come last.
    await userEvent.click(screen.getByRole("button", { name: "Sessions" }));
    await waitFor(() => expect(titlesShown()).toEqual(["Web sessions", "alerts on dns", "Mixed", "Running images"]));
    expect([lastUrl().get("sort"), lastUrl().get("order")]).toEqual(["sessions", "desc"]);
  });

  it("searches once typing pauses and filters by capability and status, keeping them in the address", async () => {
    const { lastUrl } = listServer();
    renderApp("/ui/dataSets");
    await screen.findByRole("table", { name: "My jobs" });
    await userEvent.type(screen.getByRole("searchbox", { name: "Search" }), "web");
    // The search waits for a pause in typing: longer than waitFor's usual second on a busy machine.
    await waitFor(() => expect(titlesShown()).toEqual(["Running images", "Web sessions"]), { timeout: 5000 });
    expect(lastUrl().get("q")).toBe("web");
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets?q=web");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Status" }), "Succeeded");
    await waitFor(() => expect(titlesShown()).toEqual(["Web sessions"]));
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets?q=web&status=succeeded");
    await userEvent.clear(screen.getByRole("searchbox", { name: "Search" }));
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Status" }), "Succeeded with warnings");
    await waitFor(() => expect(titlesShown()).toEqual(["alerts on dns"]), { timeout: 5000 });
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Status" }), "Any status");
    await userEvent.selectOptions(
      screen.getByRole("combobox", { name: "Capability" }),
      "Controlled Traffic Aggregation",
    );
    await waitFor(() => expect(titlesShown()).toEqual(["Mixed"]));
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets?capability=merge");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Capability" }), "Grayscale Image Generator");
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Status" }), "Failed");
    expect(await screen.findByText("No jobs match the search and filters.")).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("asks one search per pause in typing, not one per key", async () => {
    // Nothing runs, so nothing polls: every request counted is the list's own.
    const { calls } = listServer(() => jobs.filter((job) => job.status !== "running"));
    renderApp("/ui/dataSets");
    await screen.findByRole("table", { name: "My jobs" });
    const before = calls.filter((c) => c.path === "/api/jobs").length;
    await userEvent.type(screen.getByRole("searchbox", { name: "Search" }), "mixed");
    await waitFor(() => expect(titlesShown()).toEqual(["Mixed"]), { timeout: 5000 });
    expect(calls.filter((c) => c.path === "/api/jobs").length - before).toBe(1);
  });

  it("opens the view a link names: search, filter, sort, order and page", async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      makeJob({
        id: `j${i}`,
        title: `web ${String(i).padStart(2, "0")}`,
        createdAt: `2026-01-01T10:${String(i).padStart(2, "0")}:00Z`,
      }),
    );
    const { lastUrl } = listServer(() => many);
    renderApp("/ui/dataSets?q=web&status=succeeded&sort=title&order=asc&page=2");
    await screen.findByRole("table", { name: "My jobs" });
    expect(Object.fromEntries(lastUrl())).toEqual({
      q: "web",
      status: "succeeded",
      sort: "title",
      order: "asc",
      limit: "50",
      offset: "50",
    });
    expect(screen.getByRole("searchbox", { name: "Search" })).toHaveValue("web");
    expect(screen.getByRole("combobox", { name: "Status" })).toHaveDisplayValue("Succeeded");
    expect(screen.getByRole("columnheader", { name: "Title" })).toHaveAttribute("aria-sort", "ascending");
    expect(titlesShown()).toEqual(Array.from({ length: 10 }, (_, i) => `web ${50 + i}`));
    expect(within(screen.getByRole("navigation", { name: "Pages" })).getByRole("status")).toHaveTextContent(
      "51–60 of 60",
    );
  });

  it("pages with Previous and Next, saying which jobs of how many are shown", async () => {
    const many = Array.from({ length: 1234 }, (_, i) =>
      makeJob({ id: `j${i}`, title: `Job ${i}`, createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() }),
    );
    const { lastUrl } = listServer(() => many);
    renderApp("/ui/dataSets");
    const pages = await screen.findByRole("navigation", { name: "Pages" });
    expect(within(pages).getByRole("status")).toHaveTextContent("1–50 of 1,234");
    expect(titlesShown()[0]).toBe("Job 1233");
    expect(titlesShown()).toHaveLength(50);
    expect(within(pages).getByRole("button", { name: "Previous" })).toBeDisabled();
    await userEvent.click(within(pages).getByRole("button", { name: "Next" }));
    await waitFor(() => expect(within(pages).getByRole("status")).toHaveTextContent("51–100 of 1,234"));
    expect(titlesShown()[0]).toBe("Job 1183");
    expect(lastUrl().get("offset")).toBe("50");
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/dataSets?page=2");
    await userEvent.click(within(pages).getByRole("button", { name: "Previous" }));
    await waitFor(() => expect(within(pages).getByRole("status")).toHaveTextContent("1–50 of 1,234"));
  });

  it("shows the last page's end and no Next there", async () => {
    const many = Array.from({ length: 1234 }, (_, i) => makeJob({ id: `j${i}`, title: `Job ${i}` }));
    listServer(() => many);
    renderApp("/ui/dataSets?page=25");
    const pages = await screen.findByRole("navigation", { name: "Pages" });
    await waitFor(() => expect(within(pages).getByRole("status")).toHaveTextContent("1,201–1,234 of 1,234"));
    expect(titlesShown()).toHaveLength(34);
    expect(within(pages).getByRole("button", { name: "Next" })).toBeDisabled();
    expect(within(pages).getByRole("button", { name: "Previous" })).toBeEnabled();
  });

  it("keeps the row actions: Edit, Cancel of a running job, Retry of a failed one, Delete after confirmation", async () => {
    let all = jobs;
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": listed(() => all),
      "DELETE /api/jobs/w": () => {
        all = all.filter((job) => job.id !== "w");
        return { status: 204 };
      },
      "POST /api/jobs/r/cancel": () => ({ body: { ...jobs[3], status: "cancelled" } }),
      "POST /api/jobs/m/retry": () => ({ status: 201, body: { ...jobs[2], id: "m2", status: "queued" } }),
    });
    renderApp("/ui/dataSets");
    const row = (title: string) => screen.getByRole("row", { name: new RegExp(`^${title}`) });
    await screen.findByRole("table", { name: "My jobs" });
    expect(within(row("Web sessions")).getByRole("link", { name: "Edit" })).toHaveAttribute(
      "href",
      "/ui/update?id=w&title=Web%20sessions",
    );
    expect(within(row("Web sessions")).queryByRole("button", { name: "Retry" })).toBeNull();
    expect(within(row("Web sessions")).queryByRole("button", { name: "Cancel" })).toBeNull();
    await userEvent.click(within(row("Running images")).getByRole("button", { name: "Cancel" }));
    await userEvent.click(within(row("Mixed")).getByRole("button", { name: "Retry" }));
    await userEvent.click(within(row("Web sessions")).getByRole("button", { name: "Delete" }));
    await userEvent.click(within(row("Web sessions")).getByRole("button", { name: "Yes, delete" }));
    await waitFor(() => expect(titlesShown()).toEqual(["Running images", "Mixed", "alerts on dns"]));
    expect(calls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /api/jobs/r/cancel",
      "POST /api/jobs/m/retry",
      "DELETE /api/jobs/w",
    ]);
  });

  it("switches to cards and back, and remembers the choice for the next visit", async () => {
    listServer();
    const first = renderApp("/ui/dataSets");
    await screen.findByRole("table", { name: "My jobs" });
    expect(screen.getByRole("button", { name: "Table" })).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(screen.getByRole("button", { name: "Cards" }));
    expect(await screen.findByRole("article", { name: "Web sessions" })).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getAllByRole("article")).toHaveLength(4);
    expect(localStorage.getItem(JOBS_LOOK_KEY)).toBe("cards");
    first.unmount();
    const second = renderApp("/ui/dataSets");
    expect(await screen.findByRole("article", { name: "Mixed" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Table" }));
    expect(await screen.findByRole("table", { name: "My jobs" })).toBeInTheDocument();
    second.unmount();
    renderApp("/ui/dataSets");
    expect(await screen.findByRole("table", { name: "My jobs" })).toBeInTheDocument();
  });
});

describe("Shared Jobs as a table", () => {
  it("lists public jobs signed out, read-only, with their owner", async () => {
    const shared = makeJob({ id: "p", title: "Open set", public: true, isOwner: false, owner: { userName: "bob" } });
    fakeServer({
      "GET /api/auth/session": () => ({ body: {} }),
      "GET /api/jobs/public": (_, url) => ({ body: jobPage([shared], url) }),
    });
    renderApp("/ui/public/dataSets");
    const table = await screen.findByRole("table", { name: "Shared jobs" });
    expect(screen.getByTestId("location")).toHaveTextContent("/ui/public/dataSets");
    expect(within(table).getByRole("columnheader", { name: "Owner" })).toBeInTheDocument();
    expect(within(table).queryByRole("columnheader", { name: "Actions" })).toBeNull();
    const row = within(table).getByRole("row", { name: /^Open set/ });
    expect(within(row).getAllByRole("cell").at(-1)).toHaveTextContent("bob");
    expect(within(row).queryByRole("button", { name: /Delete|Cancel|Retry/ })).toBeNull();
    expect(within(row).queryByRole("link", { name: "Edit" })).toBeNull();
    expect(within(row).getByRole("link", { name: "Open set" })).toHaveAttribute("href", "/ui/details?id=p");
  });
});
