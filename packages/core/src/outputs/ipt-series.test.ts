// IPT lines: exact seconds from integer nanosecond gaps, order, signs and the one-packet case.
import { describe, expect, it } from "vitest";
import { formatNanosecondsAsSeconds, IptSeries } from "./ipt-series.js";

describe("formatNanosecondsAsSeconds", () => {
  it("prints exact decimals without trailing zeros or exponents", () => {
    expect(formatNanosecondsAsSeconds(0)).toBe("0");
    expect(formatNanosecondsAsSeconds(1)).toBe("0.000000001");
    expect(formatNanosecondsAsSeconds(1000)).toBe("0.000001");
    expect(formatNanosecondsAsSeconds(125_000)).toBe("0.000125");
    expect(formatNanosecondsAsSeconds(1_500_000_000)).toBe("1.5");
    expect(formatNanosecondsAsSeconds(2_000_000_000)).toBe("2");
    expect(formatNanosecondsAsSeconds(119_999_999_999)).toBe("119.999999999");
    expect(formatNanosecondsAsSeconds(86_400_000_000_001)).toBe("86400.000000001");
  });
});

describe("IptSeries", () => {
  it("gives an empty line for a one-packet session", () => {
    const series = new IptSeries();
    series.add(1_700_000_000, 5, false);
    expect(series.format(false)).toBe("");
    expect(series.length).toBe(0);
  });

  it("lists the gaps between consecutive packets of either direction, across second boundaries", () => {
    const series = new IptSeries();
    series.add(1_700_000_000, 999_999_000, false);
    series.add(1_700_000_001, 1_000, true);
    series.add(1_700_000_001, 1_000, false);
    series.add(1_700_000_003, 500_001_000, true);
    expect(series.format(false)).toBe("0.000002,0,2.5");
    expect(series.format(true)).toBe("-0.000002,0,-2.5");
  });

  it("keeps the direction of a zero gap in the signed variant", () => {
    const series = new IptSeries();
    series.add(10, 0, false);
    series.add(10, 0, true);
    expect(series.format(true)).toBe("-0");
    expect(series.format(false)).toBe("0");
  });

  it("counts a timestamp that goes backwards as a zero gap", () => {
    const series = new IptSeries();
    series.add(10, 500, false);
    series.add(9, 0, false);
    series.add(11, 0, false);
    expect(series.format(false)).toBe("0,2");
  });

  it("handles timestamps before 1970", () => {
    const series = new IptSeries();
    series.add(-2, 999_999_999, false);
    series.add(-1, 0, false);
    expect(series.format(false)).toBe("0.000000001");
  });
});
