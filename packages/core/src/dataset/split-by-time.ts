// Time splits: one cut time per boundary, so every session of split i starts before every session of split i + 1,
// sessions starting at the same instant stay together, and no labelled group (a schedule window) straddles a cut.
import type { MethodOutcome } from "./split-outcome.js";
import type { SplitKeys } from "./split-types.js";

/** A place to cut: sessions starting before `time` go to the earlier split; `rows` of them. */
interface Cut {
  time: number;
  rows: number;
}

/**
 * Cut k is the start time of the first session of split k + 1 (null when that split and those after it are empty):
 * of the cuts that split no group, the one whose row count before it is nearest cumulative fraction × rows (the
 * earlier on a tie). Only the two cuts around each target matter, so a selection (no sort) and a few counting passes
 * find them.
 */
export function assignByTime(keys: SplitKeys, fractions: readonly number[], split: Uint8Array): MethodOutcome {
  const { count, startUs } = keys;
  const times = startUs.subarray(0, count);
  const zones = groupZones(keys);
  const scratch = times.slice();
  const cuts = new Float64Array(fractions.length - 1).fill(Number.POSITIVE_INFINITY);
  const unconstrained = new Float64Array(fractions.length - 1).fill(Number.POSITIVE_INFINITY);
  let cumulative = 0;
  for (let k = 0; k < cuts.length && count > 0; k++) {
    cumulative += fractions[k];
    const target = cumulative * count;
    const floor = Math.min(Math.floor(target), count);
    const ceil = Math.min(Math.ceil(target), count);
    const below = floor === count ? cutAt(times, Number.POSITIVE_INFINITY) : cutAt(times, select(scratch, floor));
    const above: Cut = ceil === 0 ? { time: select(scratch, 0), rows: 0 } : cutAfter(times, select(scratch, ceil - 1));
    unconstrained[k] = nearer(below, above, target).time;
    const belowZone = zoneOf(zones, below.time);
    const aboveZone = zoneOf(zones, above.time);
    const allowedBelow = belowZone === undefined ? below : cutAt(times, belowZone.from);
    const allowedAbove = aboveZone === undefined ? above : cutAfter(times, aboveZone.to);
    cuts[k] = nearer(allowedBelow, allowedAbove, target).time;
  }
  for (let row = 0; row < count; row++) {
    const time = startUs[row];
    let index = 0;
    while (index < cuts.length && time >= cuts[index]) index++;
    split[row] = index;
  }
  const reported = (values: Float64Array): (number | null)[] =>
    Array.from(values, (time) => (time === Number.POSITIVE_INFINITY ? null : time));
  const moved = cuts.some((cut, k) => cut !== unconstrained[k]);
  return {
    details: { cutsUs: reported(cuts), unconstrainedCutsUs: reported(unconstrained) },
    cause: moved
      ? "labelled groups (schedule windows) span the nearest cuts, which moved to their edges"
      : "sessions that start at the same instant stay together",
  };
}

/** The cut at `time`: the rows starting before it. */
function cutAt(times: Float64Array, time: number): Cut {
  if (time === Number.POSITIVE_INFINITY) return { time, rows: times.length };
  let rows = 0;
  for (let i = 0; i < times.length; i++) if (times[i] < time) rows++;
  return { time, rows };
}

/** The cut just after `time`: at the first start later than it, or after the end. */
function cutAfter(times: Float64Array, time: number): Cut {
  let rows = 0;
  let next = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times.length; i++) {
    const value = times[i];
    if (value <= time) rows++;
    else if (value < next) next = value;
  }
  return { time: next, rows };
}

const nearer = (below: Cut, above: Cut, target: number): Cut =>
  target - below.rows <= above.rows - target ? below : above;

/**
 * The k-th smallest value (from 0) of `values`, which it reorders (Hoare's quickselect, median-of-three pivot: equal
 * values split evenly, so ties and sorted input stay linear).
 */
function select(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  while (high > low) {
    const a = values[low];
    const b = values[(low + high) >>> 1];
    const c = values[high];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const held = values[i];
        values[i++] = values[j];
        values[j--] = held;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return values[k];
  }
  return values[k];
}

/** The zone a cut at `time` falls in (from < time ≤ to), if any. */
function zoneOf(zones: readonly Zone[], time: number): Zone | undefined {
  let low = 0;
  let high = zones.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (zones[middle].to < time) low = middle + 1;
    else high = middle;
  }
  const zone = zones[low];
  return zone !== undefined && zone.from < time ? zone : undefined;
}

interface Zone {
  from: number;
  to: number;
}

/**
 * The times a cut may not take, merged: a group spanning [first, last] start times is split by a cut t with
 * first < t ≤ last.
 */
function groupZones(keys: SplitKeys): Zone[] {
  let groups = 0;
  for (let row = 0; row < keys.count; row++) groups = Math.max(groups, keys.group[row] + 1);
  const first = new Float64Array(groups).fill(Number.POSITIVE_INFINITY);
  const last = new Float64Array(groups).fill(Number.NEGATIVE_INFINITY);
  for (let row = 0; row < keys.count; row++) {
    const id = keys.group[row];
    if (id < 0) continue;
    const time = keys.startUs[row];
    if (time < first[id]) first[id] = time;
    if (time > last[id]) last[id] = time;
  }
  const spans: Zone[] = [];
  for (let id = 0; id < groups; id++) if (last[id] > first[id]) spans.push({ from: first[id], to: last[id] });
  spans.sort((a, b) => a.from - b.from);
  const merged: Zone[] = [];
  for (const span of spans) {
    const previous = merged[merged.length - 1];
    if (previous !== undefined && span.from <= previous.to) previous.to = Math.max(previous.to, span.to);
    else merged.push(span);
  }
  return merged;
}
