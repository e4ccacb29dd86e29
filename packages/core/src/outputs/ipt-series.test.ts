// IPT lines: exact seconds from integer nanosecond gaps, order, signs, long lines and the one-packet case.
import { describe, expect, it } from "vitest";
import { IptLine, IptSeries } from "./ipt-series.js";

function line(times: [number, boolean][], signed = false): string {
  const series = new IptSeries();
  for (const [time, forward] of times) series.add(time, forward);
  return series.text(signed);
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
    series.add(1_700_000_000, true);
    const line = new IptLine();
    series.write(false, line);
    expect(Array.from(line.bytes.subarray(0, line.length))).toEqual([10]);
    expect(series.gapCount).toBe(0);
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

  it("is reused across sessions after reset() and grows for long sessions", () => {
    const series = new IptSeries();
    for (let i = 0; i < 10_000; i++) series.add(i * 1_000_001, true);
    const long = series.text(false).split(",");
    expect(long).toHaveLength(9_999);
    expect(new Set(long)).toEqual(new Set(["0.001000001"]));
    series.reset();
    series.add(7, false);
    series.add(10, false);
    expect(series.text(true)).toBe("-0.000000003");
  });
});
