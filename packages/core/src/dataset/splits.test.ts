// Split invariants over random keys with many seeds (every row once, per-class quotas, no host, window or campaign in
// two splits, the nearest allowed cut, determinism) and the time a million and a half rows take.
import { describe, expect, it } from "vitest";
import { seededRandom } from "../testing/seeded-random.js";
import { emptyKeys, splitsOf } from "../testing/split-keys.js";
import { assignSplits, type SplitKeys, type SplitMethod, type SplitSpec } from "./splits.js";

const TRAIN_TEST = [
  { name: "train", fraction: 0.8 },
  { name: "test", fraction: 0.2 },
];
const THREE = [
  { name: "train", fraction: 0.6 },
  { name: "validation", fraction: 0.15 },
  { name: "test", fraction: 0.25 },
];

/**
 * Keys as a build could give them: skewed classes, start times with ties, a few busy hosts among up to
 * hostsPerRow × count addresses, labels in windows.
 */
function randomKeys(seed: number, count: number, hostsPerRow = 3): SplitKeys {
  const random = seededRandom(seed);
  const classes = 1 + Math.floor(random() * 5);
  const hosts = 2 + Math.floor(random() * hostsPerRow * count);
  const keys = emptyKeys(count);
  const windows = Array.from({ length: 1 + Math.floor(random() * 6) }, () => {
    const from = Math.floor(random() * 1000);
    return { from, to: from + Math.floor(random() * 200), classId: 1 + Math.floor(random() * (classes - 1)) };
  });
  for (let row = 0; row < count; row++) {
    // Whole milliseconds so several sessions start at the same microsecond.
    const start = Math.floor(random() * 1200) * 1000;
    keys.startUs[row] = 1.7e15 + start;
    keys.hostA[row] = Math.floor(random() ** 2 * hosts);
    keys.hostB[row] = Math.floor(random() ** 3 * hosts);
    const window = windows.findIndex((w) => start >= w.from * 1000 && start <= w.to * 1000);
    if (classes > 1 && window >= 0 && random() < 0.7) {
      keys.classId[row] = windows[window].classId;
      keys.group[row] = window;
    } else {
      keys.classId[row] = random() < 0.1 && classes > 1 ? 1 + Math.floor(random() * (classes - 1)) : 0;
    }
  }
  return keys;
}

function expectEveryRowOnce(keys: SplitKeys, spec: SplitSpec, split: Uint8Array, counts: number[][]): void {
  expect(split.length).toBe(keys.count);
  const recount = spec.splits.map(() => new Map<number, number>());
  for (let row = 0; row < keys.count; row++) {
    expect(split[row]).toBeLessThan(spec.splits.length);
    const perClass = recount[split[row]];
    perClass.set(keys.classId[row], (perClass.get(keys.classId[row]) ?? 0) + 1);
  }
  counts.forEach((perClass, index) => {
    perClass.forEach((rows, classId) => {
      expect(rows).toBe(recount[index].get(classId) ?? 0);
    });
  });
  expect(counts.flat().reduce((sum, rows) => sum + rows, 0)).toBe(keys.count);
}

/** Per class (of the rows chosen), each split within one row of fraction × the class's rows. */
function expectStratified(keys: SplitKeys, spec: SplitSpec, split: Uint8Array, chosen: (row: number) => boolean): void {
  const perClass = new Map<number, number[]>();
  for (let row = 0; row < keys.count; row++) {
    if (!chosen(row)) continue;
    const rows = perClass.get(keys.classId[row]) ?? spec.splits.map(() => 0);
    rows[split[row]]++;
    perClass.set(keys.classId[row], rows);
  }
  for (const rows of perClass.values()) {
    const total = rows.reduce((sum, value) => sum + value, 0);
    rows.forEach((value, index) => {
      expect(Math.abs(value - spec.splits[index].fraction * total)).toBeLessThan(1);
    });
  }
}

describe("assignSplits invariants over random keys", () => {
  const seeds = Array.from({ length: 60 }, (_, i) => i + 1);
  const sizes = [0, 1, 2, 7, 50, 400];

  it.each(["random", "time", "host", "campaign"] as SplitMethod[])("%s: every row in exactly one split", (method) => {
    for (const seed of seeds) {
      for (const splits of [TRAIN_TEST, THREE]) {
        const keys = randomKeys(seed, sizes[seed % sizes.length]);
        const spec: SplitSpec = { method, splits, seed };
        const { split, counts } = assignSplits(keys, spec);
        expectEveryRowOnce(keys, spec, split, counts);
      }
    }
  });

  it("random: every class in every split within one row of its target", () => {
    for (const seed of seeds) {
      const keys = randomKeys(seed, 50 + seed * 13);
      for (const splits of [TRAIN_TEST, THREE]) {
        const spec: SplitSpec = { method: "random", splits, seed };
        expectStratified(keys, spec, assignSplits(keys, spec).split, () => true);
      }
    }
  });

  it("host: no address in two splits, as initiator or responder", () => {
    for (const seed of seeds) {
      const keys = randomKeys(seed, 30 + seed * 7);
      const { split } = assignSplits(keys, { method: "host", splits: THREE, seed });
      const both = new Map<number, Set<number>>();
      for (const [ids, seen] of [keys.hostA, keys.hostB].map(
        (ids) => [ids, splitsOf(ids, split, keys.count)] as const,
      )) {
        expect(ids.length).toBe(keys.count);
        for (const [host, set] of seen) both.set(host, new Set([...(both.get(host) ?? []), ...set]));
      }
      for (const set of both.values()) expect(set.size).toBe(1);
    }
  });

  it("host with hostKey source: no initiator in two splits", () => {
    for (const seed of seeds) {
      const keys = randomKeys(seed, 30 + seed * 7);
      const { split } = assignSplits(keys, { method: "host", splits: TRAIN_TEST, seed, hostKey: "source" });
      for (const set of splitsOf(keys.hostA, split, keys.count).values()) expect(set.size).toBe(1);
    }
  });

  it("time: every session of split i starts before every session of split i + 1; no window in two splits", () => {
    for (const seed of seeds) {
      const keys = randomKeys(seed, 30 + seed * 11);
      const { split, details } = assignSplits(keys, { method: "time", splits: THREE, seed });
      const first = [Infinity, Infinity, Infinity];
      const last = [-Infinity, -Infinity, -Infinity];
      for (let row = 0; row < keys.count; row++) {
        first[split[row]] = Math.min(first[split[row]], keys.startUs[row]);
        last[split[row]] = Math.max(last[split[row]], keys.startUs[row]);
      }
      for (let i = 0; i < 2; i++) for (let j = i + 1; j < 3; j++) expect(last[i]).toBeLessThan(first[j]);
      const groups = splitsOf(keys.group, split, keys.count);
      groups.delete(-1);
      for (const set of groups.values()) expect(set.size).toBe(1);
      // Each reported cut is the first start time of the split after it.
      (details.cutsUs as (number | null)[]).forEach((cut, k) => {
        if (first[k + 1] !== Infinity) expect(cut).toBe(first[k + 1]);
      });
    }
  });

  it("time: the cut is the allowed one nearest the target, as a search over every start time finds it", () => {
    for (const seed of seeds) {
      const keys = randomKeys(seed, 20 + seed * 5);
      const { counts, details } = assignSplits(keys, { method: "time", splits: TRAIN_TEST, seed });
      const starts = Array.from(keys.startUs);
      const windows = new Map<number, number[]>();
      starts.forEach((start, row) => {
        if (keys.group[row] >= 0) windows.set(keys.group[row], [...(windows.get(keys.group[row]) ?? []), start]);
      });
      // Every distinct start time and "after the end", less the cuts that would put one window in both splits.
      const allowed = [...new Set(starts), Infinity].filter((cut) =>
        [...windows.values()].every((window) => window.every((s) => s < cut) || window.every((s) => s >= cut)),
      );
      const rowsBefore = (cut: number): number => starts.filter((start) => start < cut).length;
      const target = 0.8 * keys.count;
      const best = allowed.reduce((a, b) => {
        const da = Math.abs(rowsBefore(a) - target);
        const db = Math.abs(rowsBefore(b) - target);
        return db < da || (db === da && rowsBefore(b) < rowsBefore(a)) ? b : a;
      });
      expect(counts[0].reduce((sum, rows) => sum + rows, 0)).toBe(rowsBefore(best));
      expect(details.cutsUs).toEqual([best === Infinity ? null : best]);
    }
  });

  it("campaign: no group in two splits; sessions of no group stratified within one row", () => {
    for (const seed of seeds) {
      const keys = randomKeys(seed, 30 + seed * 11);
      const spec: SplitSpec = { method: "campaign", splits: THREE, seed };
      const { split } = assignSplits(keys, spec);
      const groups = splitsOf(keys.group, split, keys.count);
      groups.delete(-1);
      for (const set of groups.values()) expect(set.size).toBe(1);
      expectStratified(keys, spec, split, (row) => keys.group[row] < 0);
    }
  });

  it("is deterministic for a seed; random splits differ between seeds", () => {
    const keys = randomKeys(7, 2000);
    for (const method of ["random", "time", "host", "campaign"] as SplitMethod[]) {
      const once = assignSplits(keys, { method, splits: THREE, seed: 11 });
      const again = assignSplits(keys, { method, splits: THREE, seed: 11 });
      expect(again.split).toEqual(once.split);
      expect(again.details).toEqual(once.details);
    }
    const a = assignSplits(keys, { method: "random", splits: TRAIN_TEST, seed: 1 }).split;
    const b = assignSplits(keys, { method: "random", splits: TRAIN_TEST, seed: 2 }).split;
    let differ = 0;
    for (let row = 0; row < keys.count; row++) if (a[row] !== b[row]) differ++;
    // Two independent 80/20 draws disagree on 2 × 0.8 × 0.2 = 32 % of rows.
    expect(differ / keys.count).toBeGreaterThan(0.25);
    expect(differ / keys.count).toBeLessThan(0.4);
  });
});
