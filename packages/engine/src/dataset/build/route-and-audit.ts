// Routes the rows to their splits and audits the columns on the way: a single-feature baseline per column, trained
// on the train split's sample and scored on the test split's (docs/datasets.md, "Leakage audit").
import { type AuditRow, auditColumns, type Column, IDENTIFIER_COLUMN_NAMES, type SplitResult } from "@tracemill/core";
import type { ParquetSink } from "../../output/index.js";
import type { RowStore } from "../rows/row-store.js";
import { LABEL_COLUMNS } from "../sources/combined-labels.js";
import type { DatasetSpec } from "../spec/dataset-spec.js";
import { routeRows } from "./route-rows.js";

export interface AuditOutcome {
  /** The splits the baselines were trained and scored on. */
  trainSplit: string;
  testSplit: string;
  /** Rows of each in the sample. */
  sampled: { train: number; test: number };
  /**
   * Per column: the baseline over the classes and, with more than two classes, over attack against benign (a
   * column that tells every attack from benign traffic scores at most 4 of K over K classes at depth 2, so the
   * class baseline alone would miss it); flagged when either is.
   */
  rows: (AuditRow & { binaryBalancedAccuracy: number | null })[];
  /** Names of the flagged columns, in column order. */
  flagged: string[];
  /** Columns not audited, and why. */
  skipped: { column: string; reason: string }[];
}

const LABEL_NAMES = new Set(LABEL_COLUMNS.map((c) => c.name));
/** The feature sets' identifiers, and the dataset's `capture` column: the file a session came from is the lab's. */
const DATASET_IDENTIFIERS = new RegExp(`${IDENTIFIER_COLUMN_NAMES.source}|^capture$`, "i");

/** Train on the split named "train" (else the first), score on "test" (else the last). */
function auditSplits(spec: DatasetSpec): { train: number; test: number } {
  const names = spec.split.splits.map((s) => s.name);
  const train = names.includes("train") ? names.indexOf("train") : 0;
  const test = names.includes("test") ? names.indexOf("test") : names.length - 1;
  return { train, test: test === train ? names.length - 1 : test };
}

export async function routeAndAudit(
  store: RowStore,
  options: {
    spec: DatasetSpec;
    schema: readonly Column[];
    splits: SplitResult;
    classIds: Uint32Array;
    classes: readonly string[];
    files: readonly ParquetSink[];
  },
  onStage: (stage: string) => void = () => {},
): Promise<AuditOutcome> {
  const { spec, schema, splits } = options;
  const { train, test } = auditSplits(spec);
  const audited: number[] = [];
  const skipped: AuditOutcome["skipped"] = [];
  schema.forEach((column, c) => {
    if (LABEL_NAMES.has(column.name)) return;
    if (column.type === "list") skipped.push({ column: column.name, reason: "a list column (packet sequences)" });
    else audited.push(c);
  });
  const rowsIn = (split: number) => splits.counts[split].reduce((sum, n) => sum + n, 0);
  const [trainSample, testSample] = await routeRows(store, {
    schema,
    split: splits.split,
    classId: options.classIds,
    files: options.files,
    sampled: [
      { split: train, rows: rowsIn(train) },
      { split: test, rows: rowsIn(test) },
    ],
    audited,
    sampleRows: spec.audit.sampleRows,
    seed: spec.split.seed,
  });
  onStage("auditing the columns");
  const names = audited.map((c) => schema[c].name);
  const settings = {
    depth: spec.audit.depth,
    threshold: spec.audit.threshold,
    identifierNames: DATASET_IDENTIFIERS,
  };
  const byClass = auditColumns(
    { classCount: options.classes.length, train: trainSample, test: testSample, names },
    settings,
  );
  const binary = (sample: typeof trainSample) => ({
    ...sample,
    classId: sample.classId.map((id) => (id === 0 ? 0 : 1)),
  });
  const byLabel =
    options.classes.length > 2
      ? auditColumns({ classCount: 2, train: binary(trainSample), test: binary(testSample), names }, settings)
      : byClass;
  const rows = byClass.map((row, i) => {
    const label = byLabel[i];
    if (label === row || !label.flagged || row.flagged) {
      return { ...row, binaryBalancedAccuracy: label === row ? null : label.balancedAccuracy };
    }
    return {
      ...row,
      flagged: true,
      reason: label.reason,
      detail: `attack against benign: ${label.detail}`,
      binaryBalancedAccuracy: label.balancedAccuracy,
    };
  });
  return {
    trainSplit: spec.split.splits[train].name,
    testSplit: spec.split.splits[test].name,
    sampled: { train: trainSample.classId.length, test: testSample.classId.length },
    rows,
    flagged: rows.filter((row) => row.flagged).map((row) => row.column),
    skipped,
  };
}
