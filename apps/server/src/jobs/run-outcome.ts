// Records how a run of a job ended, for the pool that ran it: the outputs and the success in one transaction, or the
// reason it failed or was cancelled. A run that leaves no outputs leaves no files either.
import path from "node:path";
import { listColumns } from "../db/list-columns.js";
import type { JobChanges } from "../db/schema.js";
import type { JobsRepository } from "../repositories/jobs.js";
import { DISK_FULL_JOB_ERROR, isDiskFull } from "../storage/disk-full.js";
import type { JobRun, Storage } from "../storage/storage.js";
import type { ProgressHub } from "./progress-hub.js";
import type { FromWorker } from "./worker-messages.js";

/** How a run's process ended, as its pool saw it. */
export interface RunEnd {
  cancelled: boolean;
  /** The worker's last word: done with outputs, or failed with a message; null when it died without one. */
  outcome: FromWorker | null;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The run's directories: its outputs become the job's only if it succeeded. */
  run: JobRun;
}

export function runOutcomes(jobs: JobsRepository, store: Storage, hub: ProgressHub, workerId: string) {
  const now = () => new Date().toISOString();

  /** Writes a job's final state while this pool still holds it. */
  async function finish(jobId: string, changes: JobChanges): Promise<void> {
    await jobs.updateClaimed(jobId, workerId, { ...changes, finished_at: now(), lease_expires_at: null });
    hub.changed(jobId);
  }

  /** Partial outputs and the work directory of a run that ends without outputs only take space. */
  function discardFiles(jobId: string): void {
    store.removeJob(jobId);
  }

  /** A failed run's error for users; a full disk reads the same wherever it struck. */
  const failure = (error: unknown, what: string) =>
    isDiskFull(error) ? DISK_FULL_JOB_ERROR : `${what}: ${String(error)}`;

  async function succeed(jobId: string, run: JobRun, result: Extract<FromWorker, { type: "done" }>): Promise<void> {
    // Output names become download URLs and paths: only plain names written into the run's directory count.
    for (const o of result.outputs) if (o.name !== path.basename(o.name)) throw new Error(`bad output name ${o.name}`);
    // All outputs appear at once, complete: a run that dies before this leaves only its temporary directory.
    store.publishRun(jobId, run);
    const outputs = result.outputs.map((o) => {
      const size = store.outputSize(jobId, o.name);
      return { job_id: jobId, name: o.name, kind: o.kind, size, sha256: o.sha256 };
    });
    await jobs.succeed(jobId, workerId, outputs, {
      status: "succeeded",
      percent: 100,
      stage: "done",
      summary: JSON.stringify(result.summary),
      ...listColumns(
        result.summary,
        outputs.map((o) => o.size),
      ),
      finished_at: now(),
      lease_expires_at: null,
    });
    hub.changed(jobId);
  }

  return {
    finish,
    discardFiles,
    failure,

    /** Records a run's end: its outputs and success, or why it failed or was cancelled. */
    async record(jobId: string, end: RunEnd): Promise<void> {
      if (end.cancelled) {
        discardFiles(jobId);
        await finish(jobId, { status: "cancelled", stage: "cancelled" });
        return;
      }
      let error: string;
      if (end.outcome?.type === "done") {
        try {
          await succeed(jobId, end.run, end.outcome);
          return;
        } catch (cause) {
          error = failure(cause, "The job's results could not be stored");
        }
      } else if (end.outcome?.type === "failed") {
        error = end.outcome.message;
      } else {
        const how = end.signal ? `killed by ${end.signal}` : `exit code ${end.code}`;
        error = `The job stopped unexpectedly (worker ${how}). Try again; if it happens again, tell the administrator.`;
      }
      // Before the state is written: on a full disk, removing the run's files is what makes room for that write.
      discardFiles(jobId);
      await finish(jobId, { status: "failed", error, stage: "failed" });
    },
  };
}
