// The parts of jobs over several captures (one child job per capture, docs/api.md "Jobs over several captures"), and
// the parent's state while it waits for them: "running" with no worker, moved on only by the writes below.
import type { Db } from "../db/connect.js";
import type { JobChanges } from "../db/schema.js";

export function jobPartsRepository(db: Db) {
  return {
    /** The parts of the given jobs, in order, with the name of each part's capture. */
    partsOf: (parentIds: string[]) =>
      parentIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom("jobs")
            .innerJoin("job_inputs", (join) =>
              join.onRef("job_inputs.job_id", "=", "jobs.id").on("job_inputs.role", "=", "capture"),
            )
            .innerJoin("files", "files.id", "job_inputs.file_id")
            .select([
              "jobs.id",
              "jobs.parent_id",
              "jobs.part_index",
              "jobs.status",
              "jobs.percent",
              "jobs.stage",
              "jobs.error",
              "jobs.summary",
              "jobs.worker_id",
              "files.name as capture",
            ])
            .where("jobs.parent_id", "in", parentIds)
            .orderBy("jobs.part_index")
            .execute(),

    /** Changes a job while it waits for its parts (no run of its own holds it); false when it had moved on. */
    async updateWaiting(parentId: string, changes: JobChanges): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set(changes)
        .where("id", "=", parentId)
        .where("status", "=", "running")
        .where("worker_id", "is", null)
        .where("part_count", ">", 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Stops a job's parts: those queued end cancelled now, those running are asked to stop (their pools see it). */
    async cancelParts(parentId: string, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("jobs")
          .set({ status: "cancelled", stage: "cancelled", finished_at: now, cancel_requested: 1 })
          .where("parent_id", "=", parentId)
          .where("status", "=", "queued")
          .execute();
        await trx
          .updateTable("jobs")
          .set({ cancel_requested: 1 })
          .where("parent_id", "=", parentId)
          .where("status", "=", "running")
          .execute();
      });
    },
  };
}

export type JobPartsRepository = ReturnType<typeof jobPartsRepository>;
export type JobPartRow = Awaited<ReturnType<JobPartsRepository["partsOf"]>>[number];
