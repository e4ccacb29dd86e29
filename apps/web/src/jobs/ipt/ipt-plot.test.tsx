// The IPT plots on an ipt job's details: sessions listed and searched by the server, two of them ticked and drawn as
// two step lines whose points are checked by hand arithmetic, on a linear then a log scale; a search that stopped at
// the server's row budget goes on from where it stopped.
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { IptSeries, IptSession, IptSessionPage } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { detailsServer, makeJob, renderApp, searchOf, udpSession } from "../../test-utils.js";

afterEach(() => vi.unstubAllGlobals());

const job = makeJob({
  id: "j1",
  title: "Gaps",
  capability: "ipt",
  outputs: [
    { name: "ipt.txt", kind: "ipt-txt", size: 100 },
    { name: "features.csv", kind: "features-csv", size: 100 },
  ],
});

/** Session of row r: UDP 10.0.0.r:(1000+r) → 192.0.2.1:53, r + 1 packets. */
function session(row: number): IptSession {
  return { row, packets: row + 1, session: udpSession(row) };
}
const GAPS: Record<number, number[]> = { 2: [0.5, 0.25], 5: [1] };

function sessions(url: string): IptSessionPage {
  const query = searchOf(url);
  const from = Number(query.get("from") ?? 1);
  if (query.get("q") === "10.0.0.9") {
    // The server looked at its budget of rows and found one; it goes on from row 200 001.
    return from === 1
      ? { output: "ipt.txt", total: 300_000, sessions: [session(9)], nextFrom: 200_001 }
      : { output: "ipt.txt", total: 300_000, sessions: [session(200_009)], nextFrom: null };
  }
  const rows = Array.from({ length: 10 }, (_, i) => from + i);
  return { output: "ipt.txt", total: 300_000, sessions: rows.map(session), nextFrom: from + 10 };
}

function series(url: string): { output: string; maxGaps: number; series: IptSeries[] } {
  const rows = (searchOf(url).get("rows") ?? "").split(",").map(Number);
  return { output: "ipt.txt", maxGaps: 5000, series: rows.map((row) => ({ ...session(row), gaps: GAPS[row] ?? [] })) };
}

/** The query of every sessions request, in order. */
let asked: URLSearchParams[] = [];

function serve() {
  asked = [];
  return detailsServer(job, {
    "GET /api/jobs/j1/outputs/ipt.txt/sessions": (_body, url) => {
      asked.push(searchOf(url));
      return { body: sessions(url) };
    },
    "GET /api/jobs/j1/outputs/ipt.txt/series": (_body, url) => ({ body: series(url) }),
  });
}

const plots = () => screen.findByRole("region", { name: "Inter-packet times" });
const lines = (region: HTMLElement) => [...region.querySelectorAll("path.ipt-line")];

describe("the IPT plots", () => {
  it("draws two ticked sessions as two step lines, and redraws them on a log scale", async () => {
    const calls = serve();
    renderApp("/ui/details?id=j1");
    const region = await plots();
    expect(
      await within(region).findByText(/^10 sessions found in rows 1–10 of 300,000, with at least 2 packets/),
    ).toBeVisible();
    expect(Object.fromEntries(asked[0])).toEqual({ minPackets: "2", from: "1", limit: "10" });
    await userEvent.click(
      within(region).getByRole("checkbox", { name: "Plot UDP 10.0.0.2:1002 → 192.0.2.1:53 (row 2)" }),
    );
    await userEvent.click(
      within(region).getByRole("checkbox", { name: "Plot UDP 10.0.0.5:1005 → 192.0.2.1:53 (row 5)" }),
    );
    const chart = await within(region).findByRole("img", { name: "Inter-packet times of 2 sessions, linear scale" });
    expect(calls.some((call) => call.path.endsWith("/series"))).toBe(true);
    // x: packet k at 64 + 302·k (two gaps across 604 px); y: 232 − 222·v (1 s at the top).
    await vi.waitFor(() => expect(lines(region)).toHaveLength(2));
    expect(lines(region).map((line) => line.getAttribute("d"))).toEqual([
      "M64.0 121.0H366.0L366.0 176.5H668.0",
      "M64.0 10.0H366.0",
    ]);
    expect(lines(region)[0].getAttribute("stroke")).not.toBe(lines(region)[1].getAttribute("stroke"));
    expect(chart).toBeVisible();
    const table = within(region).getByRole("table", { name: "Each session's gaps" });
    expect(within(table).getByRole("row", { name: /10\.0\.0\.2:1002 .* 3 2 250 ms 375 ms 500 ms/ })).toBeVisible();

    await userEvent.click(within(region).getByRole("radio", { name: "Log" }));
    await within(region).findByRole("img", { name: "Inter-packet times of 2 sessions, log scale" });
    // Log: from 0.25 s (the smallest gap) to 2.5 s; y = 232 − 222·(log10 v − log10 0.25).
    expect(lines(region).map((line) => line.getAttribute("d"))).toEqual([
      "M64.0 165.2H366.0L366.0 232.0H668.0",
      "M64.0 98.3H366.0",
    ]);
  });

  it("searches by address and goes on past the server's row budget", async () => {
    serve();
    renderApp("/ui/details?id=j1");
    const region = await plots();
    await within(region).findByText(/^10 sessions found/);
    await userEvent.type(within(region).getByRole("searchbox", { name: "Address or port" }), "10.0.0.9");
    const least = within(region).getByRole("spinbutton", { name: /^At least/ });
    await userEvent.clear(least);
    await userEvent.type(least, "3");
    await userEvent.click(within(region).getByRole("button", { name: "Find sessions" }));
    expect(
      await within(region).findByText(
        "1 session found in rows 1–200,000 of 300,000 matching “10.0.0.9”, with at least 3 packets. Tick up to 8 to plot them.",
      ),
    ).toBeVisible();
    expect(Object.fromEntries(asked.at(-1) ?? [])).toEqual({ q: "10.0.0.9", minPackets: "3", from: "1", limit: "10" });
    await userEvent.click(within(region).getByRole("button", { name: "Search further" }));
    expect(await within(region).findByText(/rows 200,001–300,000 of 300,000/)).toBeVisible();
    expect(within(region).getByRole("checkbox", { name: /row 200009/ })).toBeVisible();
    expect(within(region).getByRole("button", { name: "Search further" })).toBeDisabled();
    expect(asked.at(-1)?.get("from")).toBe("200001");
  });
});
