// Stratified random assignment: within each class a seeded shuffle, then each split takes its quota, so every class
// is divided as the fractions say to within one session.
import { SeededRandom } from "./seeded-random.js";

/**
 * Integer quotas that add up to `total`, each the floor or the ceiling of fraction × total (largest remainder: the
 * rows left after the floors go to the largest fractional parts, the earlier split first on a tie).
 */
export function apportion(total: number, fractions: readonly number[]): number[] {
  const exact = fractions.map((fraction) => {
    const value = fraction * total;
    // 0.29 × 100 is 28.999…: a product within rounding of an integer is that integer.
    return Math.abs(value - Math.round(value)) < 1e-9 ? Math.round(value) : value;
  });
  const quotas = exact.map(Math.floor);
  let left = total - quotas.reduce((sum, value) => sum + value, 0);
  const order = exact.map((_, index) => index).sort((a, b) => exact[b] - quotas[b] - (exact[a] - quotas[a]) || a - b);
  for (let i = 0; left > 0; i = (i + 1) % order.length, left--) quotas[order[i]]++;
  return quotas;
}

/**
 * Writes into `split` the split of each row listed in `rows`: grouped by class (counting sort, in row order), each
 * class shuffled with the seed's generator, then cut into runs of the class's quotas.
 */
export function assignStratified(
  rows: Uint32Array,
  classId: Uint32Array,
  fractions: readonly number[],
  seed: number,
  split: Uint8Array,
  stream = 0,
): void {
  let classCount = 0;
  for (let i = 0; i < rows.length; i++) classCount = Math.max(classCount, classId[rows[i]] + 1);
  const starts = new Uint32Array(classCount + 1);
  for (let i = 0; i < rows.length; i++) starts[classId[rows[i]] + 1]++;
  for (let c = 0; c < classCount; c++) starts[c + 1] += starts[c];
  const fill = starts.slice(0, classCount);
  const ordered = new Uint32Array(rows.length);
  for (let i = 0; i < rows.length; i++) ordered[fill[classId[rows[i]]]++] = rows[i];
  const random = new SeededRandom(seed, stream);
  for (let c = 0; c < classCount; c++) {
    const start = starts[c];
    const end = starts[c + 1];
    if (end === start) continue;
    random.shuffle(ordered, start, end);
    const quotas = apportion(end - start, fractions);
    for (let index = 0, at = start; index < quotas.length; index++) {
      for (const stop = at + quotas[index]; at < stop; at++) split[ordered[at]] = index;
    }
  }
}
