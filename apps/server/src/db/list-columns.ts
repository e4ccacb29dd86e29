// What the job lists sort and filter by that only a finished run knows (sessions, output bytes, suspect result), kept
// in columns of the job's row when it succeeds, so lists sort and filter in SQL instead of reading every summary.
import { resultWarnings } from "@tracemill/engine/result-warnings";

export interface ListColumns {
  sessions: number | null;
  output_bytes: number;
  warning_count: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The sessions a run's summary counts: `sessions.total` of the session capabilities, clean plus attack sessions of
 * sanitize, a dataset's rows; null for a merge, which makes captures, not sessions.
 */
export function sessionsOf(summary: Record<string, unknown>): number | null {
  const sessions = isObject(summary.sessions) ? summary.sessions : {};
  if (typeof sessions.total === "number") return sessions.total;
  if (typeof sessions.clean === "number" && typeof sessions.attacks === "number") {
    return sessions.clean + sessions.attacks;
  }
  // A dataset's card counts its sessions as its rows, one per session across the splits.
  if (typeof summary.rows === "number" && Array.isArray(summary.splits)) return summary.rows;
  return null;
}

/** The list columns of a succeeded run, from its summary and its outputs' sizes. */
export function listColumns(summary: Record<string, unknown>, outputSizes: number[]): ListColumns {
  return {
    sessions: sessionsOf(summary),
    output_bytes: outputSizes.reduce((sum, size) => sum + size, 0),
    warning_count: resultWarnings(summary).length,
  };
}
