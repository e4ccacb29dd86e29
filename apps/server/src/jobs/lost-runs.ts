// What becomes of a running job whose run ended without its pool recording the end (the pool crashed, was killed,
// lost its lease, or stopped in good order): back in the queue, or failed once it was started MAX_RUNS times.
import type { JobChanges } from "../db/schema.js";
import type { JobClaim } from "../repositories/jobs.js";

/**
 * A job is started at most this many times. A run whose worker is gone is queued again until then; after that the
 * job fails instead, so a job that takes its worker down every time (a full disk, too little memory) cannot keep a
 * server in a crash loop. A pool that stops in good order (SIGTERM) hands its runs back without counting them.
 */
export const MAX_RUNS = 3;

const REASON = "its worker stopped";

/** The changes that put a running job back in the queue, with the count of runs it keeps. */
function requeued(attempts: number): JobChanges {
  return {
    status: "queued",
    percent: 0,
    stage: `queued again: ${REASON}`,
    started_at: null,
    worker_id: null,
    lease_expires_at: null,
    attempts,
  };
}

/** A run handed back by a pool stopping in good order: a restart is not the job's fault, the run does not count. */
export function handedBack(claim: JobClaim): JobChanges {
  return requeued(Math.max(0, claim.attempts - 1));
}

/** A run that ended with its worker gone: queued again, or failed once the job was started MAX_RUNS times. */
export function afterLostRun(claim: JobClaim, at: string): JobChanges {
  if (claim.attempts < MAX_RUNS) return requeued(claim.attempts);
  return {
    status: "failed",
    stage: "failed",
    error: `The job's process ended unexpectedly ${claim.attempts} times: ${REASON} while running it (the server or a worker crashed, was killed or restarted). It is not started again; if this happens again, tell the administrator.`,
    finished_at: at,
    lease_expires_at: null,
  };
}
