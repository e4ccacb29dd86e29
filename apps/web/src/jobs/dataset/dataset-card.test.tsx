// The dataset page: a dataset job's details drawn from its summary (the card's `built`): classes per split as bars,
// the audit table sortable with its flagged rows marked, each split file to download, and no text taken as HTML.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, makeJob, renderApp } from "../../test-utils.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A class name written to look like markup: the page must show it as text. */
const MARKUP_CLASS = '<img src=x onerror="alert(1)">';

const summary = {
  tracemill: { version: "0.9.0" },
  inputs: [
    {
      name: "monday.pcap",
      bytes: 2048,
      sha256: "a".repeat(64),
      format: "pcap",
      first: "2017-07-03T12:00:00.000000Z",
      last: "2017-07-03T13:00:00.000000Z",
      sessions: 70,
      complete: true,
    },
    {
      name: "tuesday.pcap",
      bytes: 4096,
      sha256: "b".repeat(64),
      format: "pcap",
      first: null,
      last: null,
      sessions: 30,
      complete: false,
    },
  ],
  rows: 100,
  columns: [{ name: "src_ip" }, { name: "dst_port" }, { name: "duration" }, { name: "noise" }],
  classes: { benign: 60, "FTP-Patator": 30, [MARKUP_CLASS]: 10 },
  splits: [
    {
      name: "train",
      fraction: 0.8,
      rows: 79,
      achieved: 0.79,
      byClass: { benign: 48, "FTP-Patator": 23, [MARKUP_CLASS]: 8 },
      file: "train.parquet",
      unflaggedFile: "train.unflagged.parquet",
    },
    {
      name: "test",
      fraction: 0.2,
      rows: 21,
      achieved: 0.21,
      byClass: { benign: 12, "FTP-Patator": 7, [MARKUP_CLASS]: 2 },
      file: "test.parquet",
      unflaggedFile: "test.unflagged.parquet",
    },
  ],
  sessions: { byEndReason: { idle: 60, fin: 40 }, byProtocol: { tcp: 100 } },
  packets: { read: 1000, decoded: 990, ignored: { "not-ip": 10 } },
  labels: {
    precedence: ["provenance", "tuples", "schedule", "alerts"],
    sessionsBySource: { none: 60, schedule: 40 },
    conflicts: { "tuples>schedule": 3 },
    agreements: {},
  },
  audit: {
    trainSplit: "train",
    testSplit: "test",
    sampled: { train: 79, test: 21 },
    rows: [
      { column: "noise", balancedAccuracy: 0.512, flagged: false, reason: null, detail: "0.512 on test" },
      { column: "src_ip", balancedAccuracy: 0.7, flagged: true, reason: "identifier", detail: "an address" },
      { column: "duration", balancedAccuracy: 0.97, flagged: true, reason: "score", detail: "0.970 on test" },
      { column: "dst_port", balancedAccuracy: null, flagged: false, reason: null, detail: "one class" },
    ],
    flagged: ["src_ip", "duration"],
    skipped: [],
  },
  caveats: [
    "tuesday.pcap is damaged: only the packets before the damage were read",
    "3 sessions had conflicting labels",
  ],
};

function datasetJob() {
  return makeJob({
    id: "d1",
    title: "Week one",
    capability: "dataset",
    params: { features: ["tracemill"], audit: { depth: 2, threshold: 0.9 } },
    outputs: [
      { name: "train.parquet", kind: "dataset-split-parquet", size: 1000 },
      { name: "test.parquet", kind: "dataset-split-parquet", size: 300 },
      { name: "train.unflagged.parquet", kind: "dataset-split-parquet", size: 900 },
      { name: "test.unflagged.parquet", kind: "dataset-split-parquet", size: 250 },
      { name: "dataset.json", kind: "dataset-json", size: 5000 },
      { name: "DATASET.md", kind: "dataset-card-md", size: 3000 },
    ],
    summary,
  });
}

function show() {
  fakeServer({
    "GET /api/auth/session": () => ({ body: alice }),
    "GET /api/jobs/d1": () => ({ body: datasetJob() }),
  });
  renderApp("/ui/details?id=d1");
}

const auditColumns = () =>
  within(screen.getByRole("table", { name: "Leakage audit" }))
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getByRole("rowheader").textContent);

describe("the dataset page", () => {
  it("draws a bar per class and split, with the counts of the summary", async () => {
    show();
    expect(await screen.findByRole("heading", { name: "Dataset card" })).toBeInTheDocument();
    const chart = screen.getByRole("img", { name: "Sessions per class and split" });
    const bars = within(chart.closest("figure") as HTMLElement).getAllByTestId("grouped-bar");
    expect(bars.map((bar) => bar.querySelector("title")?.textContent)).toEqual([
      "benign, train: 48",
      "benign, test: 12",
      "FTP-Patator, train: 23",
      "FTP-Patator, test: 7",
      `${MARKUP_CLASS}, train: 8`,
      `${MARKUP_CLASS}, test: 2`,
    ]);
    // Widths follow the values: the largest bar (48) is 6 times the width of the bar of 8.
    const width = (i: number) => Number(bars[i].getAttribute("width"));
    expect(width(0) / width(4)).toBeCloseTo(6, 5);
    const legend = screen.getByRole("list", { name: "Sessions per class and split: legend" });
    expect(
      within(legend)
        .getAllByRole("listitem")
        .map((li) => li.textContent?.trim()),
    ).toEqual(["train", "test"]);
    expect(screen.getByRole("img", { name: "Sessions per class" })).toBeInTheDocument();
  });

  it("lists the flagged columns first, marked, and sorts by each header", async () => {
    show();
    await screen.findByRole("table", { name: "Leakage audit" });
    expect(auditColumns()).toEqual(["duration", "src_ip", "noise", "dst_port"]);
    const row = (name: string) => screen.getByRole("rowheader", { name }).closest("tr") as HTMLElement;
    expect(row("duration")).toHaveClass("flagged");
    expect(row("src_ip")).toHaveClass("flagged");
    expect(row("noise")).not.toHaveClass("flagged");
    expect(row("src_ip")).toHaveTextContent("Flagged: an identifier (address, port, time)");
    expect(row("dst_port")).toHaveTextContent("–");
    expect(screen.getByText("2 of 4 columns flagged", { exact: false })).toBeInTheDocument();

    const header = (name: string) => screen.getByRole("columnheader", { name });
    await userEvent.click(screen.getByRole("button", { name: "Balanced accuracy" }));
    expect(header("Balanced accuracy")).toHaveAttribute("aria-sort", "descending");
    expect(auditColumns()).toEqual(["duration", "src_ip", "noise", "dst_port"]);
    await userEvent.click(screen.getByRole("button", { name: "Balanced accuracy" }));
    expect(header("Balanced accuracy")).toHaveAttribute("aria-sort", "ascending");
    expect(auditColumns()).toEqual(["dst_port", "noise", "src_ip", "duration"]);
    await userEvent.click(screen.getByRole("button", { name: "Column" }));
    expect(header("Column")).toHaveAttribute("aria-sort", "ascending");
    expect(header("Balanced accuracy")).not.toHaveAttribute("aria-sort");
    expect(auditColumns()).toEqual(["dst_port", "duration", "noise", "src_ip"]);
  });

  it("offers each split file, the unflagged ones and the card to download", async () => {
    show();
    const splits = await screen.findByRole("table", { name: "Splits: download each file" });
    // A link's name is its file icon's and the file's: matched by the name's end.
    const link = (name: string) =>
      within(splits).getByRole("link", { name: new RegExp(`(^| )${name.replace(/\./g, "\\.")}$`) });
    expect(link("train.parquet")).toHaveAttribute("href", "/api/jobs/d1/outputs/train.parquet");
    expect(link("test.parquet")).toHaveAttribute("href", "/api/jobs/d1/outputs/test.parquet");
    expect(link("train.unflagged.parquet")).toHaveAttribute("download", "train.unflagged.parquet");
    const train = within(splits).getByRole("rowheader", { name: "train" }).closest("tr") as HTMLElement;
    expect(
      within(train)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["PARQ train.parquetPARQ train.unflagged.parquet", "80.0 %", "79.0 %", "79", "48", "23", "8"]);
    const card = screen.getByRole("region", { name: "Dataset card" });
    expect(within(card).getByRole("link", { name: / dataset\.json$/ })).toHaveAttribute(
      "href",
      "/api/jobs/d1/outputs/dataset.json",
    );
  });

  it("shows the caveats and the inputs, takes no text as markup, and shows no generic summary table", async () => {
    show();
    const caveats = await screen.findByRole("list", { name: "Caveats" });
    expect(
      within(caveats)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(summary.caveats);
    expect(screen.getByRole("rowheader", { name: "tuesday.pcap" }).closest("tr")).toHaveTextContent("no (damaged)");
    expect(screen.getByText("100 sessions from 2 captures", { exact: false })).toBeInTheDocument();
    expect(document.querySelector("main img")).toBeNull();
    expect(screen.getAllByText(MARKUP_CLASS).length).toBeGreaterThan(0);
    expect(screen.queryByRole("heading", { name: "Run summary" })).toBeNull();
  });
});
