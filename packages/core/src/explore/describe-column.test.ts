// The explorer's figures checked against computations of their own: numpy's for a hand-made column, sorting in the
// test for a random one, bin edges by arithmetic, and counts made by filtering the values by hand.
import { describe, expect, it } from "vitest";
import type { ColumnData, NumericColumn, TextColumn } from "./column-data.js";
import { describeColumn, TOP_VALUES } from "./describe-column.js";
import { MAX_GROUPS, OTHER_GROUP } from "./row-groups.js";

const numbers = (values: number[], missing = 0): NumericColumn => ({
  type: "numeric",
  values: Float64Array.from(values),
  missing,
  invalid: 0,
  firstInvalid: null,
});

/** A text column from the cells as a CSV holds them ("" for an empty cell). */
function texts(cells: string[]): TextColumn {
  const dictionary = [""];
  const codes = cells.map((cell) => {
    if (cell === "") return 0;
    const at = dictionary.indexOf(cell);
    return at >= 0 ? at : dictionary.push(cell) - 1;
  });
  return { type: "text", codes: Uint32Array.from(codes), dictionary };
}

describe("a numeric column", () => {
  it("has numpy's figures: min, max, mean, sample std, percentiles 1/25/50/75/99, distinct values", () => {
    // numpy 2.4: v = [3, -1, 0, 10, 2.5, 7, 1000, 0, 4]; v.mean(), v.std(ddof=1), np.percentile(v, p).
    const column = numbers([3, -1, 0, Number.NaN, 10, 2.5, 7, 1000, 0, 4], 1);
    const described = describeColumn(column);
    expect(described).toMatchObject({ type: "numeric", rows: 10, count: 9, missing: 1, invalid: 0, distinct: 8 });
    // Few values: each is listed with its rows too, most frequent first, ties by value.
    expect(described.top).toEqual([
      { value: "0", count: 2 },
      ...[-1, 2.5, 3, 4, 7, 10, 1000].map((value) => ({ value: String(value), count: 1 })),
    ]);
    const stats = described.stats!;
    expect([stats.min, stats.max]).toEqual([-1, 1000]);
    expect(stats.mean).toBeCloseTo(113.94444444444444, 12);
    expect(stats.std).toBeCloseTo(332.28963687990296, 10);
    expect(stats.p1).toBeCloseTo(-0.92, 12);
    expect([stats.p25, stats.median, stats.p75]).toEqual([0, 3, 7]);
    expect(stats.p99).toBeCloseTo(920.8, 10);
  });

  it("matches quantiles of the values sorted in the test, for a random column", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const values = Array.from({ length: 1001 }, () => Math.round((random() - 0.3) * 1e6) / 100);
    const sorted = [...values].sort((a, b) => a - b);
    // Type 7: the value at rank (n − 1)·p, interpolated between its neighbours.
    const at = (p: number) => {
      const h = (sorted.length - 1) * p;
      const low = Math.floor(h);
      return sorted[low] + (h - low) * ((sorted[low + 1] ?? sorted[low]) - sorted[low]);
    };
    const stats = describeColumn(numbers(values)).stats!;
    expect([stats.p1, stats.p25, stats.median, stats.p75, stats.p99]).toEqual([0.01, 0.25, 0.5, 0.75, 0.99].map(at));
    expect(stats.median).toBe(sorted[500]);
    // Too many values to list them.
    expect(describeColumn(numbers(values)).top).toBeNull();
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(stats.mean).toBeCloseTo(mean, 9);
  });

  it("counts each value in the bin whose edges, by arithmetic, hold it", () => {
    const values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const { histogram } = describeColumn(numbers(values), { bins: 5 });
    expect(histogram?.scale).toBe("linear");
    // Range 0–10 in 5 bins: width 2, so [0,2) [2,4) [4,6) [6,8) [8,10], the last holding the maximum.
    expect(histogram?.bins).toEqual([
      { from: 0, to: 2, count: 2 },
      { from: 2, to: 4, count: 2 },
      { from: 4, to: 6, count: 2 },
      { from: 6, to: 8, count: 2 },
      { from: 8, to: 10, count: 3 },
    ]);
    const described = describeColumn(numbers([0.1, 0.2, 0.3, 0.7, 0.71, 1.3]), { bins: 3 });
    const width = (1.3 - 0.1) / 3;
    const edges = [0.1, 0.1 + width, 0.1 + 2 * width, 1.3];
    const expected = [0, 1, 2].map(
      (i) => [0.1, 0.2, 0.3, 0.7, 0.71, 1.3].filter((v) => v >= edges[i] && (i === 2 || v < edges[i + 1])).length,
    );
    expect(described.histogram?.bins.map((bin) => bin.count)).toEqual(expected);
    expect(described.histogram?.bins.map((bin) => bin.from)).toEqual(edges.slice(0, 3));
  });

  it("bins the log scale in sign(x)·log10(1 + |x|): zero at zero, negatives mirrored", () => {
    // t = -1, 0, 1, 2, 3: four bins of width 1 from t = -1, whose edges are x = -9, 0, 9, 99, 999.
    const { histogram } = describeColumn(numbers([99, 0, 9, -9, 999, 500]), { bins: 4, scale: "log" });
    expect(histogram?.scale).toBe("log");
    const bins = histogram!.bins;
    expect(bins.map((bin) => bin.count)).toEqual([1, 1, 1, 3]);
    expect(bins[0].from).toBe(-9);
    expect(bins[3].to).toBe(999);
    for (const [i, edge] of [0, 9, 99].entries()) {
      expect(bins[i].to).toBeCloseTo(edge, 9);
      expect(bins[i + 1].from).toBeCloseTo(edge, 9);
    }
  });

  it("makes one bin of a constant column, and no histogram or statistics of a column without numbers", () => {
    expect(describeColumn(numbers([5, 5, 5]), { bins: 10 }).histogram?.bins).toEqual([{ from: 5, to: 5, count: 3 }]);
    const empty = describeColumn(numbers([Number.NaN, Number.NaN], 2));
    expect(empty).toMatchObject({ count: 0, missing: 2, distinct: 0, stats: null, histogram: null });
    expect(describeColumn(numbers([4])).stats?.std).toBeNull();
  });

  it("splits the bins by a label column: per group, the values of its rows", () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const labels = [0, 0, 0, 1, 0, 1, 1, 0, 0, Number.NaN];
    const { histogram, split } = describeColumn(numbers(values), {
      bins: 3,
      by: { name: "label", column: numbers(labels, 1) },
    });
    expect(split?.by).toBe("label");
    // Largest group first: six rows of 0, three of 1, one empty.
    expect(split?.groups).toEqual([
      { name: "0", count: 6 },
      { name: "1", count: 3 },
      { name: "(empty)", count: 1 },
    ]);
    const edges = histogram!.bins;
    const inBin = (v: number, i: number) => v >= edges[i].from && (i === edges.length - 1 || v < edges[i].to);
    const expected = (label: (l: number) => boolean) =>
      edges.map((_, i) => values.filter((v, row) => label(labels[row]) && inBin(v, i)).length);
    expect(split?.counts).toEqual([expected((l) => l === 0), expected((l) => l === 1), expected(Number.isNaN)]);
  });

  it("keeps the largest groups by name and counts the rest as one", () => {
    const classes = Array.from({ length: 20 }, (_, i) => `class-${String(i).padStart(2, "0")}`);
    const rows = classes.flatMap((name, i) => Array.from({ length: 20 - i }, () => name));
    const { split } = describeColumn(numbers(rows.map((_, i) => i)), { by: { name: "class", column: texts(rows) } });
    expect(split?.groups.map((group) => group.name)).toEqual([...classes.slice(0, MAX_GROUPS - 1), OTHER_GROUP]);
    const rest = classes.slice(MAX_GROUPS - 1).reduce((sum, _, i) => sum + (20 - (MAX_GROUPS - 1 + i)), 0);
    expect(split?.groups.at(-1)?.count).toBe(rest);
  });
});

describe("a text column", () => {
  it("lists its most frequent values, ties by value, and counts the empty cells as missing", () => {
    const described = describeColumn(texts(["tcp", "udp", "tcp", "", "icmp", "tcp"]));
    expect(described).toMatchObject({ type: "text", rows: 6, count: 5, missing: 1, distinct: 3, otherValues: 0 });
    expect(described.top).toEqual([
      { value: "tcp", count: 3 },
      { value: "icmp", count: 1 },
      { value: "udp", count: 1 },
    ]);
    expect(described.stats).toBeNull();
    expect(described.histogram).toBeNull();
  });

  it("names 30 values and counts the others", () => {
    const cells = Array.from({ length: 40 }, (_, i) => `v${i}`).flatMap((v, i) =>
      Array.from({ length: 40 - i }, () => v),
    );
    const described = describeColumn(texts(cells));
    expect(described.top).toHaveLength(TOP_VALUES);
    expect(described.top?.[0]).toEqual({ value: "v0", count: 40 });
    expect(described.distinct).toBe(40);
    // v30 … v39 hold 10 + 9 + … + 1 rows.
    expect(described.otherValues).toBe(55);
  });

  it("splits its top values by class", () => {
    const protocols = texts(["tcp", "tcp", "udp", "tcp", "udp"]);
    const classes: ColumnData = texts(["benign", "dos", "benign", "dos", "dos"]);
    const { split, top } = describeColumn(protocols, { by: { name: "class", column: classes } });
    expect(top?.map((value) => value.value)).toEqual(["tcp", "udp"]);
    expect(split?.groups).toEqual([
      { name: "dos", count: 3 },
      { name: "benign", count: 2 },
    ]);
    expect(split?.counts).toEqual([
      [2, 1],
      [1, 1],
    ]);
  });
});
