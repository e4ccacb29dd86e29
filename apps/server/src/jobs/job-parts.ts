// A job over several captures runs as one part per capture: child jobs in the same queue, so each part is claimed,
// leased, re-queued after a crash and cancelled like any job, by whichever pool is free. This moves the parent on as
// its parts end: the first part that fails fails the job (the others are stopped); when all have succeeded the
// parent is queued again, and its own run combines the parts' outputs (engine/combine).
import type { Db } from "../db/connect.js";
import { jobPartsRepository } from "../repositories/job-parts.js";
import type { ProgressHub } from "./progress-hub.js";

export function jobParts(db: Db, hub: ProgressHub) {
  const parts = jobPartsRepository(db);

  /** The parent's progress: the mean of its parts', and how many captures are done. */
  async function progressed(parentId: string): Promise<void> {
    const all = await parts.partsOf([parentId]);
    if (all.length === 0) return;
    const done = all.filter((p) => p.status === "succeeded").length;
    const percent = all.reduce((sum, p) => sum + (p.status === "succeeded" ? 100 : p.percent), 0) / all.length;
    if (await parts.updateWaiting(parentId, { percent, stage: `${done} of ${all.length} captures done` })) {
      hub.changed(parentId);
    }
  }

  return {
    progressed,
    /** The parts of the given jobs, in order. */
    list: (...parentIds: string[]) => parts.partsOf(parentIds),

    /** A part reached its end (succeeded, failed or cancelled), by whatever way: moves its parent on. */
    async ended(part: { id: string; parent_id: string | null }): Promise<void> {
      const parentId = part.parent_id;
      if (parentId === null) return;
      const all = await parts.partsOf([parentId]);
      const failed = all.find((p) => p.status === "failed");
      const now = new Date().toISOString();
      if (failed) {
        const which = `Capture ${Number(failed.part_index) + 1} of ${all.length} (${failed.capture})`;
        const failedParent = await parts.updateWaiting(parentId, {
          status: "failed",
          stage: "failed",
          error: `${which} failed: ${failed.error ?? "no reason given"}`,
          finished_at: now,
        });
        if (failedParent) {
          await parts.cancelParts(parentId, now);
          hub.changed(parentId);
        }
        return;
      }
      if (all.every((p) => p.status === "succeeded")) {
        // Two parts ending at once may both get here: the first write moves the parent on, the other finds it moved.
        const queued = await parts.updateWaiting(parentId, {
          status: "queued",
          percent: 0,
          stage: "queued to combine the captures' outputs",
        });
        if (queued) hub.changed(parentId);
        return;
      }
      await progressed(parentId);
    },

    cancel: (parentId: string) => parts.cancelParts(parentId, new Date().toISOString()),
    /** Ends a job that waits for its parts as cancelled; false when it is not waiting (queued, or combining). */
    cancelWaiting: (parentId: string) =>
      parts.updateWaiting(parentId, {
        status: "cancelled",
        stage: "cancelled",
        cancel_requested: 1,
        finished_at: new Date().toISOString(),
      }),
  };
}

export type JobParts = ReturnType<typeof jobParts>;
