// Summary statistics of a numeric column over all its values: the figures of pandas' describe(), computed the same
// way (sample standard deviation, quantiles by linear interpolation between closest ranks), so they can be checked
// against the tools researchers already use.

export interface NumericStats {
  min: number;
  max: number;
  mean: number;
  /** Sample standard deviation (n − 1); null for fewer than two values. */
  std: number | null;
  p1: number;
  p25: number;
  median: number;
  p75: number;
  p99: number;
}

/** The finite values of `values` (NaN marks a missing or invalid cell), sorted ascending. */
export function sortedValues(values: Float64Array): Float64Array {
  let count = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) count++;
  const sorted = new Float64Array(count);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!Number.isNaN(value)) sorted[at++] = value;
  }
  return sorted.sort();
}

/** The p-quantile (0 ≤ p ≤ 1) of sorted values: numpy's and pandas' default ("linear", Hyndman and Fan's type 7). */
export function quantile(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const below = Math.floor(h);
  if (below + 1 >= sorted.length) return sorted[sorted.length - 1];
  return sorted[below] + (h - below) * (sorted[below + 1] - sorted[below]);
}

/** Statistics of sorted values; null when there are none. */
export function numericStats(sorted: Float64Array): NumericStats | null {
  const n = sorted.length;
  if (n === 0) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  let mean = sum / n;
  if (!Number.isFinite(mean)) {
    // Values near the doubles' limit overflow a sum; a running mean does not.
    mean = 0;
    for (let i = 0; i < n; i++) mean += (sorted[i] - mean) / (i + 1);
  }
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (sorted[i] - mean) ** 2;
  const std = Math.sqrt(squares / (n - 1));
  return {
    min: sorted[0],
    max: sorted[n - 1],
    mean,
    std: n < 2 || !Number.isFinite(std) ? null : std,
    p1: quantile(sorted, 0.01),
    p25: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    p75: quantile(sorted, 0.75),
    p99: quantile(sorted, 0.99),
  };
}

/** How many different values sorted values hold. */
export function distinctSorted(sorted: Float64Array): number {
  let distinct = sorted.length > 0 ? 1 : 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
  return distinct;
}
