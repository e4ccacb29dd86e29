// Packets (or alerts) over time without knowing the time span in advance: a fixed number of bins from the first
// time seen, whose width doubles (neighbours merged) whenever a later time falls past the last bin. One pass, fixed
// memory, a few operations per packet; a run's summary then redraws several of them on common bins (commonTimeline).

/** Bins each histogram keeps: 1 024, so a timeline of 100 bins drawn from it is off by at most 1 % of its span. */
export const HISTOGRAM_BINS = 1024;
/** The first bins' width: 1 ms. */
const FIRST_WIDTH = 0.001;

export class TimeHistogram {
  readonly counts = new Float64Array(HISTOGRAM_BINS);
  /** Seconds since the epoch of the first bin's start (NaN until the first time). */
  origin = Number.NaN;
  /** Each bin's width in seconds. */
  width = FIRST_WIDTH;
  /** Times earlier than the first one (out-of-order captures): counted in the first bin. */
  early = 0;
  total = 0;

  /** Counts one event at tsSec + tsNsec / 1e9. */
  add(tsSec: number, tsNsec: number): void {
    const t = tsSec + tsNsec * 1e-9;
    if (this.total++ === 0) this.origin = t;
    let bin = Math.floor((t - this.origin) / this.width);
    if (bin < 0) {
      this.early++;
      bin = 0;
    }
    while (bin >= HISTOGRAM_BINS) {
      this.coarsen();
      bin = Math.floor((t - this.origin) / this.width);
    }
    this.counts[bin]++;
  }

  /** Seconds since the epoch just past the last non-empty bin (the origin when empty). */
  end(): number {
    for (let bin = HISTOGRAM_BINS - 1; bin >= 0; bin--) {
      if (this.counts[bin] > 0) return this.origin + (bin + 1) * this.width;
    }
    return this.origin;
  }

  private coarsen(): void {
    const counts = this.counts;
    for (let bin = 0; bin < HISTOGRAM_BINS / 2; bin++) counts[bin] = counts[2 * bin] + counts[2 * bin + 1];
    counts.fill(0, HISTOGRAM_BINS / 2);
    this.width *= 2;
  }
}

export interface TimelineSeries {
  name: string;
  histogram: TimeHistogram;
  /** Seconds added to every time of this series (a merge's attack capture, shifted to its place). */
  shift?: number;
}

/** Several series drawn on the same bins: counts per bin, times in seconds since the epoch. */
export interface Timeline {
  start: number;
  binSeconds: number;
  series: Record<string, number[]>;
}

/**
 * The series on `bins` common bins spanning all of them: each fine bin's count goes to the common bin that holds its
 * middle. Null when every series is empty.
 */
export function commonTimeline(series: readonly TimelineSeries[], bins = 100): Timeline | null {
  const used = series.filter((s) => s.histogram.total > 0);
  if (used.length === 0) return null;
  const start = Math.min(...used.map((s) => s.histogram.origin + (s.shift ?? 0)));
  const end = Math.max(...used.map((s) => s.histogram.end() + (s.shift ?? 0)));
  const binSeconds = end > start ? (end - start) / bins : FIRST_WIDTH;
  const out: Record<string, number[]> = {};
  for (const { name, histogram, shift = 0 } of series) {
    const counts = new Array<number>(bins).fill(0);
    for (let bin = 0; bin < HISTOGRAM_BINS; bin++) {
      const count = histogram.counts[bin];
      if (count === 0) continue;
      const middle = histogram.origin + shift + (bin + 0.5) * histogram.width;
      counts[Math.min(bins - 1, Math.max(0, Math.floor((middle - start) / binSeconds)))] += count;
    }
    out[name] = counts;
  }
  return { start, binSeconds, series: out };
}
