// The Feature Set page: the session key, then every set the server lists, each with its columns in order.
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, renderApp } from "../test-utils.js";

afterEach(() => vi.unstubAllGlobals());

const featureSets = [
  {
    name: "tracemill",
    description: "Tracemill's session features",
    columns: [
      { name: "flowduration", type: "real" },
      { name: "total_fpackets", type: "int" },
      { name: "not_described_here", type: "list" },
    ],
    defaults: {},
  },
  {
    name: "cic",
    description: "CICFlowMeter's flow features",
    columns: [
      { name: "Flow Duration", type: "int" },
      { name: "Fwd Header Length", type: "int" },
      { name: "Fwd Header Length", type: "int" },
      { name: "Flow Bytes/s", type: "real" },
    ],
    defaults: { idleTimeout: 120, activeTimeout: 120 },
  },
];

/** A table's body rows as lists of cell texts. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    );

describe("Feature Set page", () => {
  it("lists every set from the server with its columns, numbered after the session key", async () => {
    const calls = fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/feature-sets": () => ({ body: featureSets }),
    });
    renderApp("/ui/resources/feature/set");
    expect(await screen.findByRole("heading", { level: 1, name: "Feature Set" })).toBeInTheDocument();
    expect(screen.getByText(/Several sets can be chosen per job/)).toHaveTextContent(/share one row/);

    const key = screen.getByRole("table", { name: "Session key" });
    expect(rowsOf(key).map((cells) => cells.slice(0, 3))).toEqual([
      ["1", "protocol", "int"],
      ["2", "ts", "time"],
      ["3", "srcIP", "string"],
      ["4", "srcPrt", "int"],
      ["5", "dstIP", "string"],
      ["6", "dstPrt", "int"],
    ]);

    expect(await screen.findByRole("heading", { level: 2, name: "tracemill" })).toBeInTheDocument();
    expect(screen.getByText("Tracemill's session features")).toBeInTheDocument();
    const tracemill = screen.getByRole("table", { name: "tracemill" });
    expect(
      within(tracemill)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["#", "Column", "Type", "Definition", "Unit"]);
    // This app's definitions where the names match (docs/features.md: flowduration in s), none for an unknown name.
    expect(rowsOf(tracemill)).toEqual([
      ["7", "flowduration", "real", "Time of the last packet minus time of the first packet", "s"],
      ["8", "total_fpackets", "int", "Number of forward packets", "packets"],
      ["9", "not_described_here", "list", "", ""],
    ]);

    expect(screen.getByRole("heading", { level: 2, name: "cic" })).toBeInTheDocument();
    expect(screen.getByText(/CICFlowMeter's flow features/)).toHaveTextContent(
      "4 columns. Chosen alone, it brings its own timeouts: idle 120 s, active 120 s.",
    );
    const cic = screen.getByRole("table", { name: "cic" });
    expect(
      within(cic)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["#", "Column", "Type"]);
    expect(rowsOf(cic)).toEqual([
      ["7", "Flow Duration", "int"],
      ["8", "Fwd Header Length", "int"],
      ["9", "Fwd Header Length", "int"],
      ["10", "Flow Bytes/s", "real"],
    ]);
    expect(screen.getAllByRole("table")).toHaveLength(3);
    expect(calls.filter((c) => c.path === "/api/feature-sets")).toHaveLength(1);
  });

  it("shows the server's message when the sets cannot be listed, and still the session key", async () => {
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/feature-sets": () => ({ status: 503, body: { messages: ["The server is starting"] } }),
    });
    renderApp("/ui/resources/feature/set");
    expect(await screen.findByText("The server is starting", {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Session key" })).toBeInTheDocument();
    expect(screen.queryByText(/Loading the feature sets/)).not.toBeInTheDocument();
  });

  it("marks the cells the stylesheet keeps on one line, and wraps each table in its own scrolling box", async () => {
    // jsdom computes no layout (e2e/polish.e2e.test.ts measures it in Chromium): here, the structure the CSS relies on.
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/feature-sets": () => ({ body: featureSets }),
    });
    renderApp("/ui/resources/feature/set");
    const cic = await screen.findByRole("table", { name: "cic" });
    expect(cic).toHaveClass("feature-columns");
    expect(cic.parentElement).toHaveClass("scroll-x");
    for (const row of within(cic).getAllByRole("row").slice(1)) {
      const [index, name, type] = within(row).getAllByRole("cell");
      expect(index).toHaveClass("nowrap", "index");
      expect(name).toHaveClass("column-name");
      expect(name.querySelector("code")).toHaveTextContent(name.textContent ?? "");
      expect(type).toHaveClass("nowrap");
    }
    expect(within(cic).getByRole("cell", { name: "10" })).toHaveClass("index");
  });
});
