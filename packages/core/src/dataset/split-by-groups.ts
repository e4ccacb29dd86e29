// Host and campaign splits: rows tied together (by an address they share, or by the campaign that labelled them) form
// groups, and whole groups go to splits, the largest first, each to the split furthest below its target.
import { SeededRandom } from "./seeded-random.js";
import { type MethodOutcome, percent } from "./split-outcome.js";
import { assignStratified } from "./split-stratified.js";
import type { HostKey, SplitKeys } from "./split-types.js";

/** Host split: union-find over each session's two addresses ("both") or the initiator's alone ("source"). */
export function assignByHost(
  keys: SplitKeys,
  fractions: readonly number[],
  seed: number,
  hostKey: HostKey,
  split: Uint8Array,
): MethodOutcome {
  const { count, hostA, hostB } = keys;
  let hosts = 0;
  for (let row = 0; row < count; row++) hosts = Math.max(hosts, hostA[row] + 1, hostB[row] + 1);
  // Parent and set size side by side: with millions of addresses each visit is one cache miss, not two.
  const sets = new Int32Array(2 * hosts);
  for (let host = 0; host < hosts; host++) {
    sets[2 * host] = host;
    sets[2 * host + 1] = 1;
  }
  if (hostKey === "both") {
    for (let row = 0; row < count; row++) {
      let a = root(sets, hostA[row]);
      let b = root(sets, hostB[row]);
      if (a === b) continue;
      if (sets[2 * a + 1] < sets[2 * b + 1]) {
        const held = a;
        a = b;
        b = held;
      }
      sets[2 * b] = a;
      sets[2 * a + 1] += sets[2 * b + 1];
    }
  }
  const rowGroup = new Uint32Array(count);
  const rows = new Uint32Array(hosts);
  for (let row = 0; row < count; row++) {
    const group = root(sets, hostA[row]);
    rowGroup[row] = group;
    rows[group]++;
  }
  // Ids are dense, so a set's size is its addresses (source: one initiator each).
  const addresses = (group: number): number => (hostKey === "both" ? sets[2 * group + 1] : 1);
  const order = largestFirst(idsWithRows(rows), rows, new SeededRandom(seed));
  const groupSplit = assignGroups(order, rows, fractions);
  for (let row = 0; row < count; row++) split[row] = groupSplit[rowGroup[row]];
  const groupsPerSplit = fractions.map(() => 0);
  for (let i = 0; i < order.length; i++) groupsPerSplit[groupSplit[order[i]]]++;
  const largest = order.length > 0 ? order[0] : 0;
  const share = count > 0 ? rows[largest] / count : 0;
  return {
    details: {
      hostKey,
      groups: order.length,
      groupsPerSplit,
      largestGroups: Array.from(order.subarray(0, 10), (id) => ({ sessions: rows[id], addresses: addresses(id) })),
    },
    cause:
      hostKey === "both"
        ? `the largest connected group of hosts (${addresses(largest)} addresses) holds ${percent(share)} of sessions`
        : `the busiest source address holds ${percent(share)} of sessions`,
  };
}

/**
 * Campaign split: the sessions of one group (campaign, window, signature) land in one split, the groups of each class
 * (the class most of the group's sessions have) balanced against that class's targets; the sessions of no group are
 * split stratified at random.
 */
export function assignByCampaign(
  keys: SplitKeys,
  fractions: readonly number[],
  seed: number,
  split: Uint8Array,
): MethodOutcome {
  const { count, classId, group } = keys;
  let groups = 0;
  let ungrouped = 0;
  for (let row = 0; row < count; row++) {
    groups = Math.max(groups, group[row] + 1);
    if (group[row] < 0) ungrouped++;
  }
  // Rows by group (counting sort) to find each group's class in one pass with one scratch array.
  const starts = new Uint32Array(groups + 1);
  const loose = new Uint32Array(ungrouped);
  for (let row = 0, at = 0; row < count; row++) {
    if (group[row] < 0) loose[at++] = row;
    else starts[group[row] + 1]++;
  }
  for (let id = 0; id < groups; id++) starts[id + 1] += starts[id];
  const byGroup = new Uint32Array(count - ungrouped);
  const fill = starts.slice(0, groups);
  for (let row = 0; row < count; row++) if (group[row] >= 0) byGroup[fill[group[row]]++] = row;
  const rows = new Uint32Array(groups);
  const groupClass = new Int32Array(groups).fill(-1);
  let classCount = 0;
  for (let row = 0; row < count; row++) classCount = Math.max(classCount, classId[row] + 1);
  const scratch = new Uint32Array(classCount);
  for (let id = 0; id < groups; id++) {
    rows[id] = starts[id + 1] - starts[id];
    let best = -1;
    for (let at = starts[id]; at < starts[id + 1]; at++) {
      const c = classId[byGroup[at]];
      scratch[c]++;
      if (best < 0 || scratch[c] > scratch[best] || (scratch[c] === scratch[best] && c < best)) best = c;
    }
    for (let at = starts[id]; at < starts[id + 1]; at++) scratch[classId[byGroup[at]]] = 0;
    groupClass[id] = best;
  }
  const random = new SeededRandom(seed);
  const groupSplit = new Uint8Array(groups);
  const present = idsWithRows(rows);
  for (let c = 0; c < classCount; c++) {
    const ids = present.filter((id) => groupClass[id] === c);
    if (ids.length > 0) assignGroups(largestFirst(ids, rows, random), rows, fractions, groupSplit);
  }
  for (let row = 0; row < count; row++) if (group[row] >= 0) split[row] = groupSplit[group[row]];
  assignStratified(loose, classId, fractions, seed, split, 1);
  const groupsPerSplit: number[][] = fractions.map(() => []);
  for (let id = 0; id < groups; id++) if (rows[id] > 0) groupsPerSplit[groupSplit[id]].push(id);
  let largest = 0;
  for (let id = 0; id < groups; id++) largest = Math.max(largest, rows[id]);
  const grouped = count - ungrouped;
  return {
    details: { groups: groupsPerSplit.reduce((n, ids) => n + ids.length, 0), groupsPerSplit, ungroupedRows: ungrouped },
    cause: `campaigns are whole: the largest holds ${percent(grouped > 0 ? largest / grouped : 0)} of the grouped sessions`,
  };
}

/** Path-halving find over `sets` (parent at 2 × id). */
function root(sets: Int32Array, x: number): number {
  while (sets[2 * x] !== x) {
    const grandparent = sets[2 * sets[2 * x]];
    sets[2 * x] = grandparent;
    x = grandparent;
  }
  return x;
}

/** The ids whose row count is not 0, ascending. */
function idsWithRows(rows: Uint32Array): Uint32Array {
  let present = 0;
  for (let id = 0; id < rows.length; id++) if (rows[id] > 0) present++;
  const ids = new Uint32Array(present);
  for (let id = 0, at = 0; id < rows.length; id++) if (rows[id] > 0) ids[at++] = id;
  return ids;
}

/** `ids` largest first; ids of equal size in the generator's shuffled order (a stable counting sort). */
function largestFirst(ids: Uint32Array, rows: Uint32Array, random: SeededRandom): Uint32Array {
  random.shuffle(ids);
  let most = 0;
  for (let i = 0; i < ids.length; i++) most = Math.max(most, rows[ids[i]]);
  const ends = new Uint32Array(most + 2);
  for (let i = 0; i < ids.length; i++) ends[most - rows[ids[i]] + 1]++;
  for (let size = 0; size <= most; size++) ends[size + 1] += ends[size];
  const ordered = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) ordered[ends[most - rows[ids[i]]]++] = ids[i];
  return ordered;
}

/** Each group in `order` to the split furthest below its target (fraction × the rows in order), the earlier on a tie. */
function assignGroups(
  order: Uint32Array,
  rows: Uint32Array,
  fractions: readonly number[],
  into = new Uint8Array(rows.length),
): Uint8Array {
  let total = 0;
  for (let i = 0; i < order.length; i++) total += rows[order[i]];
  const gap = fractions.map((fraction) => fraction * total);
  for (let i = 0; i < order.length; i++) {
    let best = 0;
    for (let k = 1; k < gap.length; k++) if (gap[k] > gap[best]) best = k;
    gap[best] -= rows[order[i]];
    into[order[i]] = best;
  }
  return into;
}
