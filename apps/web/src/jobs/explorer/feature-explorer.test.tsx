// The feature explorer on a job's details: a column picked from a searchable list, the log scale and a split by label
// asked of the server and drawn, with the numbers it answered visible in the statistics and the counts table.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ColumnSummary } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { columnAnswer, columnsAnswer, detailsServer, makeJob, renderApp, searchOf } from "../../test-utils.js";

afterEach(() => vi.unstubAllGlobals());

const job = makeJob({
  id: "j1",
  title: "Explored",
  outputs: [
    { name: "features.csv", kind: "features-csv", size: 100 },
    { name: "summary.json", kind: "summary-json", size: 10 },
  ],
});
const base = "/api/jobs/j1/outputs/features.csv/columns";

const columns = columnsAnswer({
  rows: 4,
  columns: [
    { name: "srcIP", type: "text" },
    { name: "dstPrt", type: "numeric" },
    { name: "total_fpktl", type: "numeric" },
    { name: "mean_flowpktl", type: "numeric" },
    { name: "label", type: "numeric" },
  ],
  splitBy: ["label"],
  problems: ["features.csv: 1 rows have fewer cells than the header's 5 (…)"],
});

/** What the server answers for dstPrt: its bins depend on the scale, its split on `by`. */
function dstPrt(url: string): ColumnSummary {
  const query = searchOf(url);
  const log = query.get("scale") === "log";
  const bins = log
    ? [
        { from: 22, to: 1000, count: 3 },
        { from: 1000, to: 8080, count: 1 },
      ]
    : [
        { from: 22, to: 4051, count: 3 },
        { from: 4051, to: 8080, count: 1 },
      ];
  return columnAnswer({
    column: "dstPrt",
    rows: 4,
    count: 4,
    invalid: 1,
    firstInvalid: { row: 3, line: 4, text: "x" },
    distinct: 3,
    stats: { min: 22, max: 8080, mean: 2141.75, std: 3962.1, p1: 22, p25: 22, median: 232.5, p75: 2352.5, p99: 7908.2 },
    histogram: { scale: log ? "log" : "linear", bins },
    split:
      query.get("by") === "label"
        ? {
            by: "label",
            groups: [
              { name: "0", count: 3 },
              { name: "1", count: 1 },
            ],
            counts: [
              [3, 0],
              [0, 1],
            ],
          }
        : null,
  });
}

function serve() {
  return detailsServer(job, {
    "GET /api/jobs/j1/outputs/features.csv": () => ({ text: "srcIP,dstPrt\n10.0.0.1,80\n" }),
    [`GET ${base}`]: () => ({ body: columns }),
    [`GET ${base}/mean_flowpktl`]: () => ({
      body: columnAnswer({
        column: "mean_flowpktl",
        rows: 4,
        count: 4,
        stats: { min: 60, max: 1500, mean: 510, std: 676.2, p1: 60.6, p25: 75, median: 240, p75: 675, p99: 1475.25 },
        histogram: { scale: "linear", bins: [{ from: 60, to: 1500, count: 4 }] },
      }),
    }),
    [`GET ${base}/dstPrt`]: (_body, url) => ({ body: dstPrt(url) }),
    [`GET ${base}/srcIP`]: () => ({
      body: columnAnswer({
        column: "srcIP",
        type: "text",
        rows: 4,
        count: 4,
        distinct: 2,
        top: [
          { value: "10.0.0.1", count: 3 },
          { value: "10.0.0.2", count: 1 },
        ],
      }),
    }),
  });
}

/** Answers come after the job's, then the table's: a loaded machine can take more than findBy's default second. */
const WAIT = { timeout: 5000 };
const region = () => screen.findByRole("region", { name: "Explore features" }, WAIT);

describe("the feature explorer", () => {
  it("opens on a telling column, lists every column, and narrows the list as a name is typed", async () => {
    serve();
    renderApp("/ui/details?id=j1");
    const explorer = await region();
    expect(
      await within(explorer).findByRole("img", { name: /^mean_flowpktl: 4 values in 1 bins/ }, WAIT),
    ).toBeVisible();
    expect(within(explorer).getByText("features.csv: 4 rows, 5 columns.")).toBeVisible();
    expect(within(explorer).getByRole("note")).toHaveTextContent("1 rows have fewer cells");
    const list = within(explorer).getByRole("listbox", { name: "Column" });
    expect(within(list).getAllByRole("option")).toHaveLength(5);
    expect(within(explorer).getByRole("row", { name: "Median 240" })).toBeVisible();
    await userEvent.type(within(explorer).getByRole("searchbox", { name: "Find a column" }), "PKTL");
    expect(
      within(list)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["total_fpktl (number)", "mean_flowpktl (number)"]);
    expect(within(explorer).getByText("2 of 5 columns")).toBeVisible();
  });

  it("draws a picked column, then asks for its log scale and its split by label, showing the answered numbers", async () => {
    const calls = serve();
    renderApp("/ui/details?id=j1");
    const explorer = await region();
    await userEvent.selectOptions(await within(explorer).findByRole("listbox", { name: "Column" }, WAIT), "dstPrt");
    expect(
      await within(explorer).findByRole("img", { name: "dstPrt: 4 values in 2 bins, linear scale" }, WAIT),
    ).toBeVisible();
    const stats = within(explorer).getByRole("table", { name: "Statistics of dstPrt" });
    expect(within(stats).getByRole("row", { name: "Mean 2,141.75" })).toBeVisible();
    expect(within(stats).getByRole("row", { name: "Max 8,080" })).toBeVisible();
    expect(within(stats).getByRole("row", { name: 'Not numbers 1 (first at line 4: "x")' })).toBeVisible();
    const counts = within(explorer).getByRole("table", { name: "dstPrt: 4 values in 2 bins, linear scale" });
    expect(within(counts).getByRole("row", { name: "22 – 4,051 3" })).toBeInTheDocument();

    await userEvent.click(within(explorer).getByRole("radio", { name: "Log" }));
    expect(
      await within(explorer).findByRole("img", { name: "dstPrt: 4 values in 2 bins, log scale" }, WAIT),
    ).toBeVisible();
    const logCounts = within(explorer).getByRole("table", { name: /log scale/ });
    expect(within(logCounts).getByRole("row", { name: "1,000 – 8,080 1" })).toBeInTheDocument();
    expect(calls.some((call) => call.path === `${base}/dstPrt`)).toBe(true);

    await userEvent.selectOptions(within(explorer).getByRole("combobox", { name: "Split by" }), "label");
    const split = await within(explorer).findByRole(
      "img",
      { name: "dstPrt: 4 values in 2 bins, log scale, split by label" },
      WAIT,
    );
    expect(split).toBeVisible();
    const legend = within(explorer).getByRole("list", { name: "Groups by label" });
    expect(
      within(legend)
        .getAllByRole("listitem")
        .map((item) => item.textContent?.trim()),
    ).toEqual(["0 (3)", "1 (1)"]);
    const splitCounts = within(explorer).getByRole("table", { name: /split by label/ });
    expect(within(splitCounts).getByRole("columnheader", { name: "label 1" })).toBeInTheDocument();
    expect(within(splitCounts).getByRole("row", { name: "22 – 1,000 3 3 0" })).toBeInTheDocument();
  });

  it("asks the server with the column, the scale and the split in the address", async () => {
    const urls: string[] = [];
    serve();
    // The fake server's record keeps paths alone: the addresses with their queries are kept here.
    const answer = globalThis.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      return answer(input, init);
    });
    renderApp("/ui/details?id=j1");
    const explorer = await region();
    await userEvent.selectOptions(await within(explorer).findByRole("listbox", { name: "Column" }, WAIT), "dstPrt");
    await userEvent.click(within(explorer).getByRole("radio", { name: "Log" }));
    await userEvent.selectOptions(within(explorer).getByRole("combobox", { name: "Split by" }), "label");
    await waitFor(() => expect(urls).toContain(`${base}/dstPrt?scale=log&by=label`), WAIT);
    expect(urls).toContain(`${base}/dstPrt?scale=linear`);
  });

  it("lists a text column's most frequent values as bars and in its table", async () => {
    serve();
    renderApp("/ui/details?id=j1");
    const explorer = await region();
    await userEvent.selectOptions(await within(explorer).findByRole("listbox", { name: "Column" }, WAIT), "srcIP");
    const chart = await within(explorer).findByRole("img", { name: "srcIP: the 2 most frequent of 2 values" }, WAIT);
    expect(chart).toHaveTextContent("10.0.0.1");
    const counts = within(explorer).getByRole("table", { name: "srcIP: the 2 most frequent of 2 values" });
    expect(within(counts).getByRole("row", { name: "10.0.0.1 3" })).toBeInTheDocument();
    expect(within(explorer).queryByRole("row", { name: /^Median/ })).toBeNull();
  });
});
