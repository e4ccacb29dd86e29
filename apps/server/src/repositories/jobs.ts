// Jobs, their inputs and outputs, and the durable queue (a job row with status "queued" is a queue entry).
import type { JobStatus } from "@tracemill/contracts";
import type { Db } from "../db/connect.js";
import type { FilesTable, JobOutputsTable, JobsTable } from "../db/schema.js";

export type JobRow = JobsTable & { owner_name: string };
export type JobInputRow = FilesTable & { role: string };
export type JobOutputRow = Omit<JobOutputsTable, "position">;

export function jobsRepository(db: Db) {
  const withOwner = () =>
    db
      .selectFrom("jobs")
      .innerJoin("users", "users.id", "jobs.owner_id")
      .selectAll("jobs")
      .select("users.user_name as owner_name");

  return {
    async insert(job: JobsTable, inputs: { role: string; fileId: string }[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("jobs").values(job).execute();
        for (const input of inputs) {
          await trx
            .insertInto("job_inputs")
            .values({ job_id: job.id, role: input.role, file_id: input.fileId })
            .execute();
        }
      });
    },
    byId: (id: string) => withOwner().where("jobs.id", "=", id).executeTakeFirst(),
    listByOwner: (ownerId: string) =>
      withOwner().where("jobs.owner_id", "=", ownerId).orderBy("jobs.created_at", "desc").execute(),
    listPublic: () => withOwner().where("jobs.public", "=", 1).orderBy("jobs.created_at", "desc").execute(),
    inputsOf: (jobIds: string[]) =>
      jobIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom("job_inputs")
            .innerJoin("files", "files.id", "job_inputs.file_id")
            .selectAll("files")
            .select(["job_inputs.role", "job_inputs.job_id"])
            .where("job_inputs.job_id", "in", jobIds)
            .execute(),
    outputsOf: (jobIds: string[]) =>
      jobIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom("job_outputs")
            .select(["job_id", "name", "kind", "size", "sha256"])
            .where("job_id", "in", jobIds)
            .orderBy("position")
            .execute(),
    async update(id: string, changes: Partial<JobsTable>): Promise<void> {
      await db.updateTable("jobs").set(changes).where("id", "=", id).execute();
    },
    /** Changes a job only while it is in one of the given states; false when it had moved on. */
    async transition(id: string, from: JobStatus[], changes: Partial<JobsTable>): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set(changes)
        .where("id", "=", id)
        .where("status", "in", from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async remove(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("job_outputs").where("job_id", "=", id).execute();
        await trx.deleteFrom("job_inputs").where("job_id", "=", id).execute();
        await trx.deleteFrom("jobs").where("id", "=", id).execute();
      });
    },
    async setOutputs(jobId: string, outputs: JobOutputRow[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("job_outputs").where("job_id", "=", jobId).execute();
        let position = 0;
        for (const output of outputs) {
          await trx
            .insertInto("job_outputs")
            .values({ ...output, job_id: jobId, position: position++ })
            .execute();
        }
      });
    },
    /** The oldest queued jobs, for the worker pool to claim. */
    nextQueued: (limit: number) =>
      db
        .selectFrom("jobs")
        .select("id")
        .where("status", "=", "queued")
        .orderBy("created_at")
        .orderBy("id")
        .limit(limit)
        .execute(),
    /** At start: jobs that were running when the server stopped go back to the queue (or end, if cancelled). */
    async requeueInterrupted(now: string): Promise<void> {
      await db
        .updateTable("jobs")
        .set({ status: "cancelled", finished_at: now, stage: "cancelled" })
        .where("status", "=", "running")
        .where("cancel_requested", "=", 1)
        .execute();
      await db
        .updateTable("jobs")
        .set({ status: "queued", percent: 0, stage: "queued again after a server restart", started_at: null })
        .where("status", "=", "running")
        .execute();
    },
  };
}
