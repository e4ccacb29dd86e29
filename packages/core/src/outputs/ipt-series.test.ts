// IPT lines: exact seconds from integer nanosecond gaps, order, signs, long lines and the one-packet case.
import { describe, expect, it } from "vitest";
import { IptLine, IptSeries } from "./ipt-series.js";

/** The line of one session in slot 3 (other slots left empty). */
function line(times: [number, boolean][], signed = false): string {
  const series = new IptSeries();
  series.reset(3);
  for (const [time, forward] of times) series.add(3, time, forward);
  return series.text(3, signed);
}

describe("IptSeries", () => {
  it("prints exact decimals without trailing zeros or exponents", () => {
    const gaps = [0, 1, 1000, 125_000, 1_500_000_000, 2_000_000_000, 119_999_999_999, 86_400_000_000_001];
    let time = 5;
    const times: [number, boolean][] = [[time, true]];
    for (const gap of gaps) {
      time += gap;
      times.push([time, true]);
    }
    expect(line(times)).toBe("0,0.000000001,0.000001,0.000125,1.5,2,119.999999999,86400.000000001");
  });

  it("gives an empty line (just the line feed) for a one-packet session", () => {
    const series = new IptSeries();
    series.reset(0);
    series.add(0, 1_700_000_000, true);
    const line = new IptLine();
    series.write(0, false, line);
    expect(Array.from(line.bytes.subarray(0, line.length))).toEqual([10]);
    expect(series.gapCount(0)).toBe(0);
  });

  it("signs the gaps that end at a backward packet, keeping the direction of a zero gap", () => {
    const times: [number, boolean][] = [
      [0, true],
      [2_000, false],
      [2_000, true],
      [2_500_002_000, false],
      [2_500_002_000, false],
    ];
    expect(line(times)).toBe("0.000002,0,2.5,0");
    expect(line(times, true)).toBe("-0.000002,0,-2.5,-0");
  });

  it("keeps sessions apart by slot, grows for many slots and long sessions, and is reused after reset()", () => {
    const series = new IptSeries();
    for (let slot = 0; slot < 5000; slot++) series.reset(slot);
    // Two sessions interleaved: slot 4999 (beyond the first allocation) long, slot 1 short.
    for (let i = 0; i < 10_000; i++) {
      series.add(4999, i * 1_000_001, true);
      if (i < 8) series.add(1, i * 3, i % 2 === 0);
    }
    const long = series.text(4999, false).split(",");
    expect(long).toHaveLength(9_999);
    expect(new Set(long)).toEqual(new Set(["0.001000001"]));
    expect(series.gapCount(4999)).toBe(9_999);
    expect(series.text(1, true)).toBe(
      "-0.000000003,0.000000003,-0.000000003,0.000000003,-0.000000003,0.000000003,-0.000000003",
    );
    expect(series.text(2, false)).toBe("");
    series.reset(4999);
    series.add(4999, 7, false);
    series.add(4999, 10, false);
    expect(series.text(4999, true)).toBe("-0.000000003");
  });

  it("keeps slots on both sides of its chunk boundaries apart, whatever the order they start in", () => {
    const series = new IptSeries();
    const slots = [20_000, 8191, 8192, 0, 16_383, 16_384];
    for (const slot of slots) series.reset(slot);
    for (const [i, slot] of slots.entries()) {
      series.add(slot, 1000 * i, true);
      series.add(slot, 1000 * i + slot + 1, true);
    }
    for (const slot of slots) expect(series.text(slot, false)).toBe(((slot + 1) / 1e9).toFixed(9).replace(/0+$/, ""));
    expect(series.gapCount(8191)).toBe(1);
  });

  it("takes a block at a session's second packet only, and gives it to a later session after end()", () => {
    const series = new IptSeries();
    // 20 000 sessions one after another: one of one packet, one of 12 (8 gaps in its block, 3 beyond) in turn.
    for (let i = 0; i < 20_000; i++) {
      const slot = i % 3;
      series.reset(slot);
      const packets = i % 2 === 0 ? 1 : 12;
      for (let p = 0; p < packets; p++) series.add(slot, 1_000 * i + 10 * p + (p === 5 ? 7 : 0), p % 2 === 0);
      const want = Array.from({ length: packets - 1 }, (_, p) => {
        const gap = 10 + (p === 4 ? 7 : p === 5 ? -7 : 0);
        // A gap below a microsecond: "0." and its nine digits without trailing zeros.
        return `${p % 2 === 0 ? "-" : ""}0.${String(gap).padStart(9, "0").replace(/0+$/, "")}`;
      }).join(",");
      expect(series.text(slot, true), `session ${i}`).toBe(want);
      series.end(slot);
    }
    // One chunk of blocks served them all: freed blocks are taken again, and stale gaps never show.
    expect(series.blockBytes).toBe(8 * 8 * 8192);
  });
});
