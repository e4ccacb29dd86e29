// Job details: parameters, inputs, timings, summary, charts and CSV preview; a failed job's error.
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { columnAnswer, columnsAnswer, detailsServer, makeJob, renderApp } from "../test-utils.js";

afterEach(() => vi.unstubAllGlobals());

const csv = [
  "protocol,ts,srcIP,flowduration,mean_flowpktl,label",
  "6,1,10.0.0.1,0.5,60,0",
  "6,2,10.0.0.2,1.5,1500,1",
  "17,3,10.0.0.3,0,80,0",
  "6,4,10.0.0.4,2,400,0",
].join("\n");

/** The explorer's answers for the CSV above: its columns, and the charted ones counted by hand. */
const csvColumns = {
  "GET /api/jobs/j1/outputs/labelled.csv/columns": () => ({
    body: columnsAnswer({
      output: "labelled.csv",
      rows: 4,
      columns: [
        { name: "protocol", type: "numeric" },
        { name: "ts", type: "numeric" },
        { name: "srcIP", type: "text" },
        { name: "flowduration", type: "numeric" },
        { name: "mean_flowpktl", type: "numeric" },
        { name: "label", type: "numeric" },
      ],
      splitBy: ["label"],
    }),
  }),
  "GET /api/jobs/j1/outputs/labelled.csv/columns/protocol": () => ({
    body: columnAnswer({
      column: "protocol",
      top: [
        { value: "6", count: 3 },
        { value: "17", count: 1 },
      ],
    }),
  }),
  "GET /api/jobs/j1/outputs/labelled.csv/columns/label": () => ({
    body: columnAnswer({
      column: "label",
      top: [
        { value: "0", count: 3 },
        { value: "1", count: 1 },
      ],
    }),
  }),
  "GET /api/jobs/j1/outputs/labelled.csv/columns/mean_flowpktl": () => ({
    body: columnAnswer({
      column: "mean_flowpktl",
      rows: 4,
      count: 4,
      histogram: {
        scale: "linear",
        bins: [
          { from: 60, to: 780, count: 3 },
          { from: 780, to: 1500, count: 1 },
        ],
      },
    }),
  }),
  "GET /api/jobs/j1/outputs/labelled.csv/columns/flowduration": () => ({
    body: columnAnswer({
      column: "flowduration",
      histogram: {
        scale: "linear",
        bins: [
          { from: 0, to: 1, count: 2 },
          { from: 1, to: 2, count: 2 },
        ],
      },
    }),
  }),
};

describe("Job details", () => {
  it("shows parameters, inputs with hashes, timings, the summary, charts and the first CSV rows", async () => {
    const job = makeJob({
      id: "j1",
      title: "Labelled set",
      capability: "label",
      params: { mode: "binary", features: ["tracemill", "cic"], idleTimeout: 120 },
      summary: { sessions: 4, packets: { read: 120, decoded: 118 } },
      inputs: [
        {
          id: "f1",
          role: "capture",
          name: "day1.pcap",
          size: 3 * 1024 * 1024,
          sha256: "ab".repeat(32),
          format: "pcap",
          compression: null,
          createdAt: "",
        },
      ],
      outputs: [{ name: "labelled.csv", kind: "csv", size: csv.length, sha256: "cd".repeat(32) }],
    });
    detailsServer(job, { "GET /api/jobs/j1/outputs/labelled.csv": () => ({ text: csv }), ...csvColumns });
    renderApp("/ui/details?id=j1");
    expect(await screen.findByRole("heading", { level: 1, name: /Labelled set/ })).toBeInTheDocument();
    expect(screen.getByRole("row", { name: "mode binary" })).toBeInTheDocument();
    expect(screen.getByRole("row", { name: "features tracemill, cic" })).toBeInTheDocument();
    expect(screen.getByRole("row", { name: "sessions 4" })).toBeInTheDocument();
    expect(screen.getByRole("row", { name: "packets.decoded 118" })).toBeInTheDocument();
    expect(screen.getByRole("row", { name: "Ran 2.00 s" })).toBeInTheDocument();
    const input = screen.getByRole("row", { name: /day1\.pcap/ });
    expect(input).toHaveTextContent("3.0 MiB");
    expect(input).toHaveTextContent("ab".repeat(32));

    const output = screen.getByRole("row", { name: /labelled\.csv/ });
    expect(within(output).getByRole("link", { name: /labelled\.csv/ })).toHaveAttribute(
      "href",
      "/api/jobs/j1/outputs/labelled.csv",
    );
    expect(output).toHaveTextContent("cd".repeat(32));
    const protocols = await screen.findByRole("img", { name: "Sessions per protocol" }, { timeout: 5000 });
    expect(protocols).toHaveTextContent("TCP");
    expect(protocols).toHaveTextContent("3");
    expect(protocols).toHaveTextContent("UDP");
    expect(screen.getByRole("img", { name: "Sessions per label" })).toHaveTextContent("1 attack");
    expect(screen.getByRole("img", { name: "Mean packet length per session" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Session duration" })).toBeInTheDocument();
    const preview = screen.getByRole("region", { name: "Preview of labelled.csv" });
    expect(within(preview).getAllByRole("row")).toHaveLength(5);
    expect(within(preview).getByRole("columnheader", { name: "flowduration" })).toBeInTheDocument();
    // A complete run has no damage notice.
    expect(screen.queryByText(/Incomplete input/)).toBeNull();
  });

  it("says plainly that a Parquet output has no preview, and charts its sessions from the whole file", async () => {
    const job = makeJob({
      id: "j5",
      title: "Typed",
      params: { format: "parquet", idleTimeout: 120 },
      summary: { parquet: { name: "features.parquet", rows: 3 }, sessions: { byProtocol: { tcp: 2, udp: 1 } } },
      outputs: [
        { name: "features.parquet", kind: "features-parquet", size: 4096 },
        { name: "summary.json", kind: "summary-json", size: 300 },
      ],
    });
    const calls = detailsServer(job, {
      "GET /api/jobs/j5/outputs/features.parquet/columns": () => ({
        body: columnsAnswer({
          output: "features.parquet",
          format: "parquet",
          rows: 3,
          columns: [{ name: "protocol", type: "numeric" }],
        }),
      }),
      "GET /api/jobs/j5/outputs/features.parquet/columns/protocol": () => ({
        body: columnAnswer({
          output: "features.parquet",
          column: "protocol",
          top: [
            { value: "6", count: 2 },
            { value: "17", count: 1 },
          ],
        }),
      }),
    });
    renderApp("/ui/details?id=j5");
    const note = await screen.findByRole("note");
    expect(note).toHaveTextContent(
      "features.parquet has no preview in the browser: download it and load it with pandas, polars or DuckDB.",
    );
    expect(within(note).getByRole("link", { name: "download it" })).toHaveAttribute(
      "href",
      "/api/jobs/j5/outputs/features.parquet",
    );
    const output = screen.getByRole("link", {
      name: /^Parquet of session features \(typed columns\) features\.parquet$/,
    });
    expect(output).toHaveAttribute("href", "/api/jobs/j5/outputs/features.parquet");
    expect(screen.getByRole("row", { name: "format parquet" })).toBeInTheDocument();
    // Charted from the server's reading of the whole file, as a CSV is.
    const protocols = await screen.findByRole("img", { name: "Sessions per protocol" }, { timeout: 5000 });
    expect(protocols).toHaveTextContent("TCP");
    expect(protocols).toHaveTextContent("UDP");
    expect(screen.getAllByRole("img", { name: "Sessions per protocol" })).toHaveLength(1);
    expect(screen.queryByRole("region", { name: /Preview of/ })).toBeNull();
    // The page never reads the Parquet file itself.
    expect(calls.some((c) => c.path.endsWith(".parquet"))).toBe(false);
  });

  it("says plainly that a damaged capture was read only up to the damage", async () => {
    const message = "cut.pcap: damaged capture at byte 4116 (after 35 packets): truncated packet record";
    const job = makeJob({
      id: "j3",
      title: "Cut",
      summary: { complete: false, damage: { offset: 4116, message }, csv: { rows: 7 } },
    });
    detailsServer(job);
    renderApp("/ui/details?id=j3");
    expect(await screen.findByText(/Incomplete input/)).toHaveTextContent(
      `Incomplete input: ${message}. The outputs hold what was read before byte 4116.`,
    );
  });

  it("shows lists in the summary as small tables, plain lists comma-separated and empty ones as none", async () => {
    const signatures = Array.from({ length: 23 }, (_, i) => ({
      sid: 1000 + i,
      signature: `rule ${i}`,
      alerts: 23 - i,
    }));
    const job = makeJob({
      id: "j4",
      title: "Sanitized",
      capability: "sanitize",
      summary: {
        passes: [
          { capture: "input", alerts: 3 },
          { capture: "clean", alerts: 0, counted: 0 },
        ],
        ruleset: { ruleFiles: ["a.rules", "b.rules"] },
        suricata: { ruleErrors: [] },
        alerts: { bySignature: signatures },
      },
    });
    detailsServer(job);
    renderApp("/ui/details?id=j4");
    await screen.findByRole("heading", { level: 1, name: /Sanitized/ });
    const passes = screen.getByRole("table", { name: "passes" });
    // Columns are every key of the records, in the order first seen; a missing value shows as a dash.
    expect(
      within(passes)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["capture", "alerts", "counted"]);
    expect(
      within(passes)
        .getAllByRole("row")
        .map((r) => r.textContent),
    ).toEqual(["capturealertscounted", "input3—", "clean00"]);
    expect(screen.getByRole("row", { name: "ruleset.ruleFiles a.rules, b.rules" })).toBeInTheDocument();
    expect(screen.getByRole("row", { name: "suricata.ruleErrors none" })).toBeInTheDocument();
    const bySignature = screen.getByRole("table", { name: "alerts.bySignature" });
    expect(within(bySignature).getAllByRole("row")).toHaveLength(1 + 20);
    expect(screen.getByText("… and 3 more in summary.json")).toBeInTheDocument();
    expect(screen.queryByText(/"capture":"input"/)).toBeNull();
  });

  it("shows a failed job's error and no charts", async () => {
    detailsServer(makeJob({ id: "j2", title: "Bad", status: "failed", error: "not a capture" }));
    renderApp("/ui/details?id=j2");
    expect(await screen.findByRole("alert")).toHaveTextContent("not a capture");
    expect(screen.queryByRole("img", { name: "Sessions per protocol" })).toBeNull();
  });

  it("lists the captures of a job over several, with each part's state and a failed part's reason", async () => {
    const part = (
      index: number,
      capture: string,
      status: "succeeded" | "running" | "failed",
      error: string | null,
    ) => ({
      index,
      capture,
      status,
      progress: { percent: status === "running" ? 42.4 : 100, stage: "reading capture" },
      error,
    });
    detailsServer(
      makeJob({
        id: "j3",
        title: "Week",
        status: "running",
        parts: [
          part(0, "monday.pcap", "succeeded", null),
          part(1, "tuesday.pcap", "running", null),
          part(2, "wednesday.pcap", "failed", "wednesday.pcap: damaged at byte 24"),
        ],
      }),
    );
    renderApp("/ui/details?id=j3");
    expect(await screen.findByRole("heading", { level: 2, name: "Captures" })).toBeInTheDocument();
    expect(screen.getByText(/1 of 3 captures done/)).toBeInTheDocument();
    expect(screen.getByRole("row", { name: /1 monday\.pcap/ })).toHaveTextContent("Succeeded");
    expect(screen.getByRole("row", { name: /2 tuesday\.pcap/ })).toHaveTextContent("42 % reading capture");
    expect(screen.getByRole("row", { name: /3 wednesday\.pcap/ })).toHaveTextContent("damaged at byte 24");
  });
});
