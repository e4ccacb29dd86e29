// The leakage audit: for each column a single-feature baseline trained on the train split and scored on the test split
// by balanced accuracy; a column that alone separates the classes, or whose name says it identifies a session, is
// flagged (docs/datasets.md, "Leakage audit").
import { TracemillError } from "../errors.js";
import { fitCategorical } from "./audit-categorical.js";
import { EDGE_SAMPLE, fitNumeric, MAX_BINS, type NumericFit } from "./audit-numeric.js";
import { type ClassBalance, classBalance } from "./audit-score.js";
import { SeededRandom } from "./seeded-random.js";

export interface AuditInput {
  classCount: number;
  /** One entry per column, in the order of names. */
  train: { classId: Uint32Array; columns: (Float64Array | string[])[] };
  test: { classId: Uint32Array; columns: (Float64Array | string[])[] };
  names: string[];
  /** Class names by id, for the details; "class N" without them. */
  classNames?: readonly string[];
}

export interface AuditOptions {
  /** 1: one threshold (2 intervals); 2: up to three (4 intervals, e.g. a middle band of values = attack). */
  depth: 1 | 2;
  /** Flag a column whose test balanced accuracy is at least this. */
  threshold: number;
  /** Column names flagged as identifiers whatever their score. */
  identifierNames?: RegExp;
}

export interface AuditRow {
  column: string;
  /** On the test split; null when the train or test split holds fewer than two classes. */
  balancedAccuracy: number | null;
  /** On the train split, the baseline's own data: far above the test score means the baseline memorised values. */
  trainBalancedAccuracy: number | null;
  flagged: boolean;
  reason: "score" | "identifier" | "score+identifier" | null;
  detail: string;
}

/**
 * Addresses, ports, times and flow ids as the feature sets name them (the session key's columns, --cic-compat's,
 * nfstream's first/last-seen times) and as other tools commonly do (src_ip, dst_port, Flow ID…).
 */
export const IDENTIFIER_COLUMN_NAMES =
  /^\s*(?:(?:flow|vlan|tunnel)[\s_]?)?id\s*$|^\s*(?:ts|time|timestamp|time[\s_]stamp)\s*$|^\s*(?:src|dst|source|destination)[\s_]?(?:ip|addr|address|mac|oui|port|prt)\s*$|_(?:first|last)_seen(?:_ms)?\s*$/i;

export const DEFAULT_AUDIT_OPTIONS: Readonly<Required<AuditOptions>> = {
  depth: 2,
  threshold: 0.9,
  identifierNames: IDENTIFIER_COLUMN_NAMES,
};

/** One row per column, in the input's order. */
export function auditColumns(input: AuditInput, options: Partial<AuditOptions> = {}): AuditRow[] {
  const { depth, threshold, identifierNames } = { ...DEFAULT_AUDIT_OPTIONS, ...options };
  if (depth !== 1 && depth !== 2) throw badOption("depth", `${depth} is neither 1 nor 2`);
  if (!(threshold > 0 && threshold <= 1)) throw badOption("threshold", `${threshold} is not in (0, 1]`);
  validate(input);
  const identifier = new RegExp(identifierNames.source, identifierNames.flags.replace(/[gy]/g, ""));
  const balance = classBalance(input.classCount, input.train.classId, input.test.classId);
  const scorable = balance.trainClasses >= 2 && balance.testClasses >= 2;
  const sample = input.train.classId.length > EDGE_SAMPLE ? edgeSample(input.train.classId.length) : null;
  const scratch = new Float64Array((MAX_BINS + 2) * (MAX_BINS + 2));
  const className = (c: number): string => input.classNames?.[c] ?? `class ${c}`;
  return input.names.map((column, index) => {
    const named = identifier.test(column);
    let balancedAccuracy: number | null = null;
    let trainBalancedAccuracy: number | null = null;
    let detail: string;
    if (!scorable) {
      detail = unscorable(balance, className);
    } else {
      const trainValues = input.train.columns[index];
      const testValues = input.test.columns[index] as typeof trainValues;
      if (trainValues instanceof Float64Array) {
        const fit = fitNumeric(
          { values: trainValues, classId: input.train.classId },
          { values: testValues as Float64Array, classId: input.test.classId },
          sample,
          balance,
          depth,
          scratch,
        );
        detail = describeIntervals(fit, className);
        [balancedAccuracy, trainBalancedAccuracy] = [fit.test, fit.train];
      } else {
        const fit = fitCategorical(
          { values: trainValues, classId: input.train.classId },
          { values: testValues as string[], classId: input.test.classId },
          balance,
        );
        const unseen = input.test.classId.length > 0 ? fit.unseen / input.test.classId.length : 0;
        detail = `${fit.distinct} values in train; ${(unseen * 100).toFixed(1)} % of test rows have a value train lacks`;
        [balancedAccuracy, trainBalancedAccuracy] = [fit.test, fit.train];
      }
      detail += `; train ${trainBalancedAccuracy.toFixed(3)}`;
    }
    if (named) detail += "; the name is an identifier's (address, port, time or flow id)";
    const scored = balancedAccuracy !== null && balancedAccuracy >= threshold;
    const reason = scored && named ? "score+identifier" : scored ? "score" : named ? "identifier" : null;
    return { column, balancedAccuracy, trainBalancedAccuracy, flagged: reason !== null, reason, detail };
  });
}

/** Train rows the bin edges come from: drawn once for every column, in row order for locality. */
function edgeSample(rows: number): Uint32Array {
  const random = new SeededRandom(0);
  const sample = new Uint32Array(EDGE_SAMPLE);
  for (let i = 0; i < sample.length; i++) sample[i] = random.below(rows);
  return sample.sort();
}

function unscorable(balance: ClassBalance, className: (c: number) => string): string {
  const which = balance.trainClasses < 2 ? "train" : "test";
  const counts = which === "train" ? balance.weight : balance.testCount;
  const present = [...counts.keys()].filter((c) => counts[c] > 0).map(className);
  const holds = present.length === 0 ? "no rows" : `only ${present[0]}`;
  return `the ${which} split holds ${holds}: balanced accuracy needs two classes`;
}

/** "≤ 79 → benign, ≤ 443 → dos, > 443 → benign": each interval's bound and class. */
function describeIntervals(fit: NumericFit, className: (c: number) => string): string {
  const { edges, intervalEnds, leafClass } = fit;
  const last = intervalEnds.length - 1;
  return intervalEnds
    .map((end, i) => {
      const bound =
        fit.nanAlone && i === last
          ? "NaN"
          : end < edges.length
            ? `≤ ${number(edges[end])}`
            : i === 0
              ? "every value"
              : `> ${number(edges[intervalEnds[i - 1]])}`;
      return `${bound} → ${className(leafClass[i])}`;
    })
    .join(", ");
}

/** Whole numbers (ports, times) in full, others to 6 significant digits. */
const number = (value: number): string => String(Number.isInteger(value) ? value : Number(value.toPrecision(6)));

function validate(input: AuditInput): void {
  const { classCount, train, test, names } = input;
  if (!Number.isSafeInteger(classCount) || classCount < 1 || classCount > 65536) {
    throw badInput(`classCount ${classCount} is not between 1 and 65536`);
  }
  for (const [split, part] of [
    ["train", train],
    ["test", test],
  ] as const) {
    if (part.columns.length !== names.length) {
      throw badInput(`the ${split} split has ${part.columns.length} columns for ${names.length} names`);
    }
    for (let row = 0; row < part.classId.length; row++) {
      if (part.classId[row] >= classCount) {
        throw badInput(`${split} row ${row} has class id ${part.classId[row]}, not below ${classCount}`);
      }
    }
    part.columns.forEach((values, index) => {
      if (values.length !== part.classId.length) {
        throw badInput(
          `column "${names[index]}" has ${values.length} ${split} rows for ${part.classId.length} classes`,
        );
      }
      if (values instanceof Float64Array !== train.columns[index] instanceof Float64Array) {
        throw badInput(`column "${names[index]}" is numeric in one split and text in the other`);
      }
    });
  }
}

const badInput = (reason: string): TracemillError => new TracemillError("BAD_INPUT", `audit: ${reason}`);
const badOption = (field: string, reason: string): TracemillError =>
  new TracemillError("BAD_OPTION", `audit.${field}: ${reason}`, { field: `audit.${field}` });
