// A full data disk (or an exhausted quota), however it shows: a file system call's ENOSPC or EDQUOT, SQLite's
// SQLITE_FULL, or the engine's OUTPUT_FAILED carrying one of those as its cause.

/** The words users see when the data disk is full: an upload answers 507 with them, a job fails with them. */
export const DISK_FULL = "The data disk is full";

/** A job's error when its run filled the disk: the run's partial outputs are removed, so the space is back. */
export const DISK_FULL_JOB_ERROR = `${DISK_FULL}: the job stopped and its partial outputs were removed. Delete jobs or uploads you no longer need (or ask the administrator for space), then start it again.`;

const FULL_CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);

/** True when the error, or an error it wraps (`cause`, the engine's `context.cause`), says the disk is full. */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  // A few levels are plenty: the engine wraps a system error once.
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown; context?: { cause?: unknown } };
    if (typeof candidate.code === "string" && FULL_CODES.has(candidate.code)) return true;
    current = candidate.cause ?? candidate.context?.cause;
  }
  return false;
}
