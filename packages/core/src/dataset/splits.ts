// Split assignment for a dataset: every session (row) goes to exactly one split, by time, by host, by campaign or
// stratified at random, over compact typed keys so a million sessions take milliseconds (docs/datasets.md, "Splits").
import { TracemillError } from "../errors.js";
import { assignByCampaign, assignByHost } from "./split-by-groups.js";
import { assignByTime } from "./split-by-time.js";
import { type MethodOutcome, percent } from "./split-outcome.js";
import { assignStratified } from "./split-stratified.js";
import { SPLIT_METHODS, type SplitKeys, type SplitMethod, type SplitResult, type SplitSpec } from "./split-types.js";

export {
  type HostKey,
  SPLIT_METHODS,
  type SplitKeys,
  type SplitMethod,
  type SplitResult,
  type SplitSpec,
} from "./split-types.js";

/** The split of every row: validates the spec and the keys, runs the method, counts rows per split and class. */
export function assignSplits(keys: SplitKeys, spec: SplitSpec): SplitResult {
  const fractions = validateSpec(spec);
  validateKeys(keys, spec.method);
  const split = new Uint8Array(keys.count);
  const outcome = runMethod(keys, spec, fractions, split);
  const counts = countRows(keys, split, fractions.length);
  const warnings = splitWarnings(keys, spec, counts, outcome.cause);
  return { split, counts, warnings, details: { method: spec.method, ...outcome.details } };
}

function runMethod(keys: SplitKeys, spec: SplitSpec, fractions: number[], split: Uint8Array): MethodOutcome {
  switch (spec.method) {
    case "random": {
      const rows = new Uint32Array(keys.count);
      for (let row = 0; row < keys.count; row++) rows[row] = row;
      assignStratified(rows, keys.classId, fractions, spec.seed, split);
      return { details: {} };
    }
    case "time":
      return assignByTime(keys, fractions, split);
    case "host":
      return assignByHost(keys, fractions, spec.seed, spec.hostKey ?? "both", split);
    case "campaign":
      return assignByCampaign(keys, fractions, spec.seed, split);
  }
}

function validateSpec(spec: SplitSpec): number[] {
  if (!SPLIT_METHODS.includes(spec.method)) {
    throw badSpec("method", `"${spec.method}" is not a split method (${SPLIT_METHODS.join(", ")})`);
  }
  if (!Number.isSafeInteger(spec.seed)) throw badSpec("seed", `${spec.seed} is not an integer`);
  if (spec.hostKey !== undefined && spec.hostKey !== "both" && spec.hostKey !== "source") {
    throw badSpec("hostKey", `"${spec.hostKey}" is neither "both" nor "source"`);
  }
  if (spec.splits.length === 0 || spec.splits.length > 256) {
    throw badSpec("splits", `${spec.splits.length} splits; give between 1 and 256`);
  }
  const names = new Set<string>();
  let sum = 0;
  spec.splits.forEach(({ name, fraction }, index) => {
    if (name.length === 0) throw badSpec(`splits[${index}].name`, "is empty");
    if (names.has(name)) throw badSpec(`splits[${index}].name`, `"${name}" is used twice`);
    names.add(name);
    if (!(fraction >= 0 && fraction <= 1)) throw badSpec(`splits[${index}].fraction`, `${fraction} is not in [0, 1]`);
    sum += fraction;
  });
  if (Math.abs(sum - 1) > 1e-9) throw badSpec("splits", `the fractions add up to ${sum}, not 1`);
  return spec.splits.map((entry) => entry.fraction);
}

const badSpec = (field: string, reason: string): TracemillError =>
  new TracemillError("BAD_OPTION", `split.${field}: ${reason}`, { field: `split.${field}` });

function validateKeys(keys: SplitKeys, method: SplitMethod): void {
  const { count } = keys;
  if (!Number.isSafeInteger(count) || count < 0) throw badKeys(`count ${count} is not a row count`);
  for (const name of ["classId", "startUs", "hostA", "hostB", "group"] as const) {
    if (keys[name].length < count) throw badKeys(`${name} holds ${keys[name].length} rows, fewer than ${count}`);
  }
  if (method === "time") {
    for (let row = 0; row < count; row++) {
      if (!Number.isFinite(keys.startUs[row])) throw badKeys(`startUs of row ${row} is ${keys.startUs[row]}`);
    }
  }
  for (let row = 0; row < count; row++) {
    const group = keys.group[row];
    if (group < -1 || group >= MAX_ID) throw badKeys(`group of row ${row} is ${group}; use -1 or a dense id`);
    if (keys.classId[row] >= MAX_CLASSES) throw badKeys(`class id of row ${row} is ${keys.classId[row]}`);
  }
  if (method === "host") {
    for (let row = 0; row < count; row++) {
      if (keys.hostA[row] >= MAX_ID || keys.hostB[row] >= MAX_ID) {
        throw badKeys(`host ids of row ${row} are ${keys.hostA[row]}, ${keys.hostB[row]}; intern them densely`);
      }
    }
  }
}

/** Host and group ids index typed arrays: they must be dense (0, 1, 2…), and this bounds what a bad id allocates. */
const MAX_ID = 2 ** 26;
const MAX_CLASSES = 2 ** 16;

const badKeys = (reason: string): TracemillError => new TracemillError("BAD_INPUT", `split keys: ${reason}`);

/** Classes run from 0 to the largest id present (or named). */
export function classCountOf(keys: SplitKeys): number {
  let max = -1;
  for (let row = 0; row < keys.count; row++) if (keys.classId[row] > max) max = keys.classId[row];
  return Math.max(max + 1, keys.classNames?.length ?? 0);
}

function countRows(keys: SplitKeys, split: Uint8Array, splitCount: number): number[][] {
  const classCount = classCountOf(keys);
  const flat = new Float64Array(splitCount * classCount);
  for (let row = 0; row < keys.count; row++) flat[split[row] * classCount + keys.classId[row]]++;
  return Array.from({ length: splitCount }, (_, index) =>
    Array.from(flat.subarray(index * classCount, (index + 1) * classCount)),
  );
}

/**
 * A warning when a split is further from its target than one row and 1 % of the rows (the method's cause first), and
 * one per class that has sessions but none in a split meant to hold some.
 */
function splitWarnings(keys: SplitKeys, spec: SplitSpec, counts: number[][], cause?: string): string[] {
  const warnings: string[] = [];
  const total = keys.count;
  const rows = counts.map((perClass) => perClass.reduce((sum, value) => sum + value, 0));
  const off = spec.splits.some(
    ({ fraction }, index) => Math.abs(rows[index] - fraction * total) > Math.max(1, 0.01 * total),
  );
  if (off && total > 0) {
    const achieved = spec.splits
      .map(
        ({ name, fraction }, index) => `${name} gets ${percent(rows[index] / total)} instead of ${percent(fraction)}`,
      )
      .join(", ");
    warnings.push(`${spec.method} split: ${cause === undefined ? "" : `${cause}; `}${achieved}`);
  }
  const classCount = counts[0]?.length ?? 0;
  for (let classId = 0; classId < classCount; classId++) {
    const inClass = counts.reduce((sum, perClass) => sum + perClass[classId], 0);
    if (inClass === 0) continue;
    spec.splits.forEach(({ name, fraction }, index) => {
      if (fraction > 0 && counts[index][classId] === 0) {
        const label = keys.classNames?.[classId] ?? `class ${classId}`;
        warnings.push(`${spec.method} split: ${label} (${inClass} sessions) has none in ${name}`);
      }
    });
  }
  return warnings;
}
