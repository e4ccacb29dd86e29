// A dataset job's summary: the card's `built` object (docs/datasets.md, "The card"), as the dataset page reads it.
// Read defensively: a summary is JSON from the server, and a page must not break on a field it does not know.

export interface AuditRow {
  column: string;
  /** On the test split; null when a split holds fewer than two classes. */
  balancedAccuracy: number | null;
  trainBalancedAccuracy?: number | null;
  flagged: boolean;
  reason: string | null;
  detail: string;
}

export interface DatasetSplit {
  name: string;
  fraction: number;
  rows: number;
  achieved: number;
  byClass: Record<string, number>;
  file: string;
  unflaggedFile?: string;
}

export interface DatasetInput {
  name: string;
  bytes: number;
  sha256: string | null;
  format?: string;
  first: string | null;
  last: string | null;
  sessions: number;
  complete: boolean;
}

export interface DatasetSummary {
  tracemill?: { version?: string };
  inputs: DatasetInput[];
  rows: number;
  columns: { name: string; type?: string }[];
  classes: Record<string, number>;
  splits: DatasetSplit[];
  splitWarnings?: string[];
  sessions?: { byEndReason?: Record<string, number>; byProtocol?: Record<string, number> };
  packets?: { read?: number; decoded?: number; ignored?: Record<string, number> };
  labels?: {
    precedence?: string[];
    sessionsBySource?: Record<string, number>;
    conflicts?: Record<string, number>;
    agreements?: Record<string, number>;
  };
  audit: {
    trainSplit: string;
    testSplit: string;
    sampled?: { train: number; test: number };
    rows: AuditRow[];
    flagged: string[];
    skipped?: { column: string; reason: string }[];
  };
  caveats: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The summary as a dataset's, when it has the card's parts the page draws; else undefined. */
export function datasetSummaryOf(summary: Record<string, unknown> | null): DatasetSummary | undefined {
  if (!summary) return undefined;
  const audit = summary.audit;
  const ok =
    Array.isArray(summary.inputs) &&
    Array.isArray(summary.splits) &&
    summary.splits.every((s) => isRecord(s) && typeof s.name === "string" && isRecord(s.byClass)) &&
    isRecord(summary.classes) &&
    isRecord(audit) &&
    Array.isArray(audit.rows) &&
    audit.rows.every((r) => isRecord(r) && typeof r.column === "string");
  if (!ok) return undefined;
  return {
    ...(summary as unknown as DatasetSummary),
    columns: Array.isArray(summary.columns) ? (summary.columns as DatasetSummary["columns"]) : [],
    caveats: Array.isArray(summary.caveats) ? summary.caveats.map(String) : [],
    audit: {
      ...(audit as unknown as DatasetSummary["audit"]),
      flagged: Array.isArray(audit.flagged) ? audit.flagged.map(String) : [],
    },
  };
}
