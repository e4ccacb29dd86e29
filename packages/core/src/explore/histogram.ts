// Equal-width bins over a numeric column's range, on a linear scale or a symmetric log scale, counted over all its
// values and, when the rows are split into groups (by label or class), per group.

export type HistogramScale = "linear" | "log";

export const DEFAULT_BINS = 40;
export const MAX_BINS = 200;

export interface HistogramBin {
  /** The bin holds values from `from` (included) to `to` (excluded; the last bin includes its `to`, the maximum). */
  from: number;
  to: number;
  count: number;
}

/**
 * The log scale is log10(1 + |x|) with x's sign: zero stays at zero, counts and sizes of 0 need no special case, and
 * a negative value (a -1 for "none") is mirrored rather than dropped. Bins are of equal width in that space.
 */
const toLog = (x: number) => Math.sign(x) * Math.log10(1 + Math.abs(x));
const fromLog = (t: number) => Math.sign(t) * (10 ** Math.abs(t) - 1);

/** Where the bins of a histogram begin and end, in the scale's space, and how to find a value's bin. */
export class BinEdges {
  readonly count: number;
  private readonly edges: Float64Array;
  private readonly low: number;
  private readonly width: number;
  private readonly transform: (x: number) => number;

  constructor(
    private readonly min: number,
    private readonly max: number,
    bins: number,
    readonly scale: HistogramScale,
  ) {
    this.transform = scale === "log" ? toLog : (x: number) => x;
    this.low = this.transform(min);
    const high = this.transform(max);
    // One value (or none) makes one bin: equal widths of nothing would all start at the same point.
    this.count = high > this.low ? bins : 1;
    this.width = (high - this.low) / this.count;
    this.edges = new Float64Array(this.count + 1);
    for (let i = 0; i < this.count; i++) this.edges[i] = this.low + this.width * i;
    this.edges[this.count] = high;
  }

  /**
   * The bin of a finite value within [min, max]: first by arithmetic, then moved so that the edges it is compared
   * with are exactly those reported, whatever the rounding of the division.
   */
  binOf(value: number): number {
    if (this.count === 1) return 0;
    const t = this.transform(value);
    let bin = Math.min(this.count - 1, Math.max(0, Math.floor((t - this.low) / this.width)));
    while (bin > 0 && t < this.edges[bin]) bin--;
    while (bin < this.count - 1 && t >= this.edges[bin + 1]) bin++;
    return bin;
  }

  /** The bins' bounds in the column's own units: the first starts at the minimum, the last ends at the maximum. */
  bounds(): { from: number; to: number }[] {
    const back = this.scale === "log" ? fromLog : (t: number) => t;
    return Array.from({ length: this.count }, (_, i) => ({
      from: i === 0 ? this.min : back(this.edges[i]),
      to: i === this.count - 1 ? this.max : back(this.edges[i + 1]),
    }));
  }
}

/**
 * Counts per bin of the finite values; with `groups` (a group index per row, or -1 for none), also per group:
 * `perGroup[g][bin]`.
 */
export function countBins(
  values: Float64Array,
  edges: BinEdges,
  groups?: { of: Int32Array; count: number },
): { counts: number[]; perGroup: number[][] } {
  const counts = new Array<number>(edges.count).fill(0);
  const perGroup = Array.from({ length: groups?.count ?? 0 }, () => new Array<number>(edges.count).fill(0));
  for (let row = 0; row < values.length; row++) {
    const value = values[row];
    if (Number.isNaN(value)) continue;
    const bin = edges.binOf(value);
    counts[bin]++;
    if (groups && groups.of[row] >= 0) perGroup[groups.of[row]][bin]++;
  }
  return { counts, perGroup };
}
