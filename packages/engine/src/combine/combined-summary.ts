// The summary of a job over several captures: what each part's summary says, side by side, and the counts added up.
// Counts are the numbers under the sections that count things (packets, sessions, rows, …); every other value of the
// combined summary is the first part's when all parts agree on it (options, version), and each part keeps its own.

/** The sections whose numbers add up across captures (every number under them is a count). */
const COUNTED = ["packets", "fragments", "sessions", "ipt", "images", "labels", "alerts"] as const;
/** Numbers under a counted section that are settings, not counts: they must agree and are kept. */
const SETTINGS = new Set(["flowsPerImage", "columns", "maxPriority"]);

type Json = Record<string, unknown>;

export interface PartSummary {
  /** The capture's name as given. */
  capture: string;
  /** The names of this part's copies among the combined job's outputs. */
  files: string[];
  summary: Json;
}

export function combinedSummary(version: string, parts: readonly PartSummary[], rowsFile: string | null): Json {
  const summaries = parts.map((part) => part.summary);
  const first = summaries[0] ?? {};
  const combined: Json = {
    tracemill: { version },
    captures: parts.length,
    options: first.options,
    complete: summaries.every((s) => s.complete !== false),
    damage: damaged(parts),
  };
  for (const section of COUNTED) {
    const values = summaries.map((s) => s[section]).filter((v) => v !== undefined);
    if (values.length > 0) combined[section] = values.slice(1).reduce<unknown>((sum, v) => add(sum, v), values[0]);
  }
  const rows = summaries.reduce((sum, s) => sum + rowsOf(s), 0);
  if (rowsFile !== null) combined.rows = { name: rowsFile, rows };
  combined.parts = parts.map((part) => ({ capture: part.capture, files: part.files, summary: part.summary }));
  return combined;
}

/** The damaged parts, each with what its summary says about the damage; null when no part is damaged. */
function damaged(parts: readonly PartSummary[]): unknown {
  const list = parts
    .filter((part) => part.summary.damage !== null && part.summary.damage !== undefined)
    .map((part) => ({ capture: part.capture, damage: part.summary.damage }));
  return list.length > 0 ? list : null;
}

/** The rows a part wrote (its csv, or parquet section). */
function rowsOf(summary: Json): number {
  for (const key of ["csv", "parquet", "rows"]) {
    const section = summary[key] as { rows?: unknown } | undefined;
    if (typeof section?.rows === "number") return section.rows;
  }
  return 0;
}

/** Adds counts found at the same place in both; a value that is not a count is kept from `a` (b's differs: both). */
function add(a: unknown, b: unknown, key = ""): unknown {
  if (typeof a === "number" && typeof b === "number") return SETTINGS.has(key) ? a : a + b;
  if (isObject(a) && isObject(b)) {
    const out: Json = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? add(a[k], v, k) : v;
    return out;
  }
  return a;
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
