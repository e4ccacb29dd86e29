// Count, sum, min, max and sample standard deviation of a stream of values, kept in 6 slots of a Float64Array
// (or 4 without min and max).

/** Slots used: count, sum, min, max, mean, sum of squared deviations. */
export const STATS_SLOTS = 6;
/** Slots used by addMoments: count, sum, mean, sum of squared deviations. */
export const MOMENT_SLOTS = 4;

/**
 * Sums stay exact while they are integers below 2^53 (packet lengths, nanosecond gaps). The variance uses Welford's
 * update: each step adds a product of two same-signed differences, so the sum of squares never goes negative and
 * the result never becomes NaN; it is deterministic for the same values in the same order.
 *
 * The state starts at zeros, and values are never negative (lengths, gaps of a clock that never goes back), so the
 * first value needs no case of its own: max starts at 0, and Welford's step from mean 0 with count 1 gives the
 * value itself and adds 0 to the sum of squares, bit for bit what setting them did. Only min tests the count. Fewer
 * branches and less bytecode: these run inlined in the per-packet path, within V8's inlining budget.
 */
export function addValue(s: Float64Array, at: number, value: number): void {
  const count = s[at] + 1;
  s[at] = count;
  s[at + 1] += value;
  if (count === 1 || value < s[at + 2]) s[at + 2] = value;
  if (value > s[at + 3]) s[at + 3] = value;
  const mean = s[at + 4];
  const delta = value - mean;
  const next = mean + delta / count;
  s[at + 4] = next;
  s[at + 5] += delta * (value - next);
}

/** addValue without min and max (MOMENT_SLOTS slots): the same mean and deviation, bit for bit. */
export function addMoments(s: Float64Array, at: number, value: number): void {
  const count = s[at] + 1;
  s[at] = count;
  s[at + 1] += value;
  const mean = s[at + 2];
  const delta = value - mean;
  const next = mean + delta / count;
  s[at + 2] = next;
  s[at + 3] += delta * (value - next);
}

export function statCount(s: Float64Array, at: number): number {
  return s[at];
}

export function statSum(s: Float64Array, at: number): number {
  return s[at + 1];
}

/** Minimum; 0 for no values. */
export function statMin(s: Float64Array, at: number): number {
  return s[at + 2];
}

/** Maximum; 0 for no values. */
export function statMax(s: Float64Array, at: number): number {
  return s[at + 3];
}

/** Arithmetic mean (sum / count, from the exact sum); 0 for no values. Serves addValue and addMoments states. */
export function statMean(s: Float64Array, at: number): number {
  return s[at] === 0 ? 0 : s[at + 1] / s[at];
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function statDeviation(s: Float64Array, at: number): number {
  return s[at] < 2 ? 0 : Math.sqrt(s[at + 5] / (s[at] - 1));
}

/** Sample standard deviation of an addMoments state. */
export function momentDeviation(s: Float64Array, at: number): number {
  return s[at] < 2 ? 0 : Math.sqrt(s[at + 3] / (s[at] - 1));
}
