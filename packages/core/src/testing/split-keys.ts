// For tests of the dataset splits: keys of no class, time, host or group, and which splits each id landed in.
import type { SplitKeys } from "../dataset/split-types.js";

export function emptyKeys(count: number): SplitKeys {
  return {
    count,
    classId: new Uint32Array(count),
    startUs: new Float64Array(count),
    hostA: new Uint32Array(count),
    hostB: new Uint32Array(count),
    group: new Int32Array(count).fill(-1),
  };
}

/** The splits each value of `ids` (one per row) occurs in. */
export function splitsOf(ids: ArrayLike<number>, split: Uint8Array, count: number): Map<number, Set<number>> {
  const seen = new Map<number, Set<number>>();
  for (let row = 0; row < count; row++) {
    const set = seen.get(ids[row]) ?? new Set<number>();
    set.add(split[row]);
    seen.set(ids[row], set);
  }
  return seen;
}
