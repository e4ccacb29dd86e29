// CSV parsing and histogram binning behind the job details charts.
import { describe, expect, it } from "vitest";
import { histogram } from "./bar-chart.js";
import { countBy, findColumn, parseCsv, protocolName } from "./csv.js";

describe("parseCsv", () => {
  it("reads quoted cells and drops a cut-off last line of a partial file", () => {
    const text = 'a,b\n1,"x, ""y"""\n2,z\n3,';
    expect(parseCsv(text, false)).toEqual({
      header: ["a", "b"],
      rows: [
        ["1", 'x, "y"'],
        ["2", "z"],
      ],
    });
    expect(parseCsv(text, true).rows).toHaveLength(3);
  });
  it("finds columns by any of their names and counts by a column", () => {
    const table = parseCsv("Protocol,Label\n6,1\n17,0\n6,0\n", true);
    expect(findColumn(table.header, ["proto", "protocol"])).toBe(0);
    expect(findColumn(table.header, ["class"])).toBe(-1);
    expect(countBy(table.rows, 0, protocolName)).toEqual([
      { label: "TCP", value: 2 },
      { label: "UDP", value: 1 },
    ]);
  });
});

describe("histogram", () => {
  it("puts every value in one of equal-width bins, the maximum in the last", () => {
    const bins = histogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 10], 5);
    expect(bins.map((b) => b.count)).toEqual([2, 2, 2, 2, 2]);
    expect(bins[0].from).toBe(0);
    expect(bins[4].to).toBe(10);
  });
  it("uses log-spaced bins over many decades and one bin for equal values", () => {
    const bins = histogram([0.001, 0.01, 1, 100, 1000], 4);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(5);
    expect(bins[1].to / bins[1].from).toBeCloseTo(bins[2].to / bins[2].from);
    expect(histogram([3, 3, 3])).toEqual([{ from: 3, to: 3, count: 3 }]);
    expect(histogram([])).toEqual([]);
  });
});
