// Jobs, their inputs and outputs, and the durable queue (a job row with status "queued" is a queue entry).
import type { JobStatus } from "@tracemill/contracts";
import type { Insertable, Kysely, Transaction } from "kysely";
import type { Db } from "../db/connect.js";
import { isPostgres } from "../db/dialect.js";
import type { Database, FilesTable, JobChanges, JobOutputsTable, JobRecord, JobsTable } from "../db/schema.js";

export type JobRow = JobRecord & { owner_name: string };
export type JobInputRow = FilesTable & { role: string };
export type JobOutputRow = Omit<JobOutputsTable, "position">;
export type JobBrief = Pick<
  JobRecord,
  "id" | "owner_id" | "public" | "title" | "capability" | "status" | "warning_count"
>;
export interface NewInput {
  role: string;
  fileId: string;
  /** Its place among the job's inputs of its role (the order of a job's captures); 0 when alone. */
  position?: number;
}
export interface NewJob {
  job: Insertable<JobsTable>;
  inputs: NewInput[];
}
/** Who holds a running job and until when, and how often it was started, as read by a process looking for jobs whose worker is gone. */
export type JobClaim = Pick<
  JobRecord,
  "id" | "worker_id" | "lease_expires_at" | "cancel_requested" | "attempts" | "parent_id"
>;

/** Changes a running job only while the worker still holds it; false when the claim was lost. */
async function updateIfClaimed(
  db: Db | Transaction<Database>,
  id: string,
  workerId: string,
  changes: JobChanges,
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set(changes)
    .where("id", "=", id)
    .where("status", "=", "running")
    .where("worker_id", "=", workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function jobsRepository(db: Db) {
  const withOwner = () =>
    db
      .selectFrom("jobs")
      .innerJoin("users", "users.id", "jobs.owner_id")
      .selectAll("jobs")
      .select("users.user_name as owner_name");

  return {
    /** A job with its inputs, and the parts of a job over several captures (each with its own inputs), at once. */
    async insert(job: Insertable<JobsTable>, inputs: NewInput[], parts: NewJob[] = []): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const each of [{ job, inputs }, ...parts]) {
          await trx.insertInto("jobs").values(each.job).execute();
          for (const input of each.inputs) {
            await trx
              .insertInto("job_inputs")
              .values({ job_id: each.job.id, role: input.role, file_id: input.fileId, position: input.position ?? 0 })
              .execute();
          }
        }
      });
    },
    byId: (id: string) => withOwner().where("jobs.id", "=", id).executeTakeFirst(),
    /** What names and places jobs beside another (lineage): who may read each, its title, capability and outcome. */
    briefsOf: (ids: string[]): Promise<JobBrief[]> =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom("jobs")
            .select(["id", "owner_id", "public", "title", "capability", "status", "warning_count"])
            .where("id", "in", ids)
            .execute(),
    // Parts are the job's, never listed on their own.
    listByOwner: (ownerId: string) =>
      withOwner()
        .where("jobs.owner_id", "=", ownerId)
        .where("jobs.parent_id", "is", null)
        .orderBy("jobs.created_at", "desc")
        .execute(),
    listPublic: () =>
      withOwner()
        .where("jobs.public", "=", 1)
        .where("jobs.parent_id", "is", null)
        .orderBy("jobs.created_at", "desc")
        .execute(),
    inputsOf: (jobIds: string[]) =>
      jobIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom("job_inputs")
            .innerJoin("files", "files.id", "job_inputs.file_id")
            .selectAll("files")
            .select(["job_inputs.role", "job_inputs.job_id", "job_inputs.position"])
            .where("job_inputs.job_id", "in", jobIds)
            .orderBy("job_inputs.position")
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
    async update(id: string, changes: JobChanges): Promise<void> {
      await db.updateTable("jobs").set(changes).where("id", "=", id).execute();
    },
    /** Changes a job only while it is in one of the given states; false when it had moved on. */
    async transition(id: string, from: JobStatus[], changes: JobChanges): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set(changes)
        .where("id", "=", id)
        .where("status", "in", from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Removes a job with its parts, their inputs' links and outputs' records. */
    async remove(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const parts = (await trx.selectFrom("jobs").select("id").where("parent_id", "=", id).execute()).map(
          (r) => r.id,
        );
        const ids = [...parts, id];
        await trx.deleteFrom("job_outputs").where("job_id", "in", ids).execute();
        await trx.deleteFrom("job_inputs").where("job_id", "in", ids).execute();
        await trx.deleteFrom("jobs").where("parent_id", "=", id).execute();
        await trx.deleteFrom("jobs").where("id", "=", id).execute();
      });
    },
    /**
     * Records a run's outputs and its final state in one transaction, while this worker still holds the job: a job
     * never shows outputs without having succeeded. False when the claim was lost.
     */
    async succeed(id: string, workerId: string, outputs: JobOutputRow[], changes: JobChanges): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await updateIfClaimed(trx, id, workerId, changes))) return false;
        await trx.deleteFrom("job_outputs").where("job_id", "=", id).execute();
        let position = 0;
        for (const output of outputs) {
          await trx
            .insertInto("job_outputs")
            .values({ ...output, job_id: id, position: position++ })
            .execute();
        }
        return true;
      });
    },
    /**
     * Claims the oldest queued job for a worker in one statement. SQLite serialises writers, so the status check lets
     * exactly one of several racing processes update the row. On PostgreSQL the pick locks its row and skips rows
     * other claimers hold (FOR UPDATE SKIP LOCKED): racing workers take different jobs at once instead of queueing
     * on the same row, and the lock keeps two of them from ever taking one.
     */
    async claimNext(workerId: string, now: string, leaseUntil: string): Promise<string | undefined> {
      const postgres = isPostgres(db as unknown as Kysely<unknown>);
      const claimed = await db
        .updateTable("jobs")
        .set({ status: "running", worker_id: workerId, lease_expires_at: leaseUntil })
        // A job over several captures started when its parts did; its own run (combining them) keeps that time.
        .set((eb) => ({
          percent: 0,
          stage: "starting",
          attempts: eb("attempts", "+", 1),
          started_at: eb.fn.coalesce("started_at", eb.val(now)),
        }))
        .where("status", "=", "queued")
        .where("id", "=", (eb) =>
          eb
            .selectFrom("jobs as next")
            .select("next.id")
            .where("next.status", "=", "queued")
            .orderBy("next.created_at")
            // A job's parts were created together: they start in the order of its captures.
            .orderBy("next.part_index")
            .orderBy("next.id")
            .limit(1)
            .$if(postgres, (pick) => pick.forUpdate().skipLocked()),
        )
        .returning("id")
        .executeTakeFirst();
      return claimed?.id;
    },
    /** Changes a running job only while this worker still holds it; false when the claim was lost. */
    updateClaimed: (id: string, workerId: string, changes: JobChanges): Promise<boolean> =>
      updateIfClaimed(db, id, workerId, changes),
    async renewLeases(workerId: string, ids: string[], leaseUntil: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable("jobs")
        .set({ lease_expires_at: leaseUntil })
        .where("id", "in", ids)
        .where("status", "=", "running")
        .where("worker_id", "=", workerId)
        .execute();
    },
    /** The state of the given jobs, for a worker to see cancels and lost claims of the jobs it runs. */
    stateOf: (ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom("jobs")
            .select(["id", "status", "worker_id", "cancel_requested"])
            .where("id", "in", ids)
            .execute(),
    progressOf: (ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db.selectFrom("jobs").select(["id", "status", "percent", "stage"]).where("id", "in", ids).execute(),
    /** Running jobs held by a worker (a job whose parts are running is held by none: it waits for them). */
    runningClaims: (): Promise<JobClaim[]> =>
      db
        .selectFrom("jobs")
        .select(["id", "worker_id", "lease_expires_at", "cancel_requested", "attempts", "parent_id"])
        .where("status", "=", "running")
        .where((eb) => eb.or([eb("part_count", "=", 0), eb("worker_id", "is not", null)]))
        .execute(),
    /**
     * Ends a claim unless it changed since it was read (a renewed lease or a new holder means someone else is running
     * the job): a job whose cancel was asked ends cancelled, any other takes `next` (back in the queue, or failed).
     */
    async release(claim: JobClaim, now: string, next: JobChanges): Promise<boolean> {
      const same = db
        .updateTable("jobs")
        .where("id", "=", claim.id)
        .where("status", "=", "running")
        .where("worker_id", claim.worker_id === null ? "is" : "=", claim.worker_id)
        .where("lease_expires_at", claim.lease_expires_at === null ? "is" : "=", claim.lease_expires_at);
      const cancelled = await same
        .set({ status: "cancelled", stage: "cancelled", finished_at: now, worker_id: null, lease_expires_at: null })
        .where("cancel_requested", "=", 1)
        .executeTakeFirst();
      if (Number(cancelled.numUpdatedRows) === 1) return true;
      const released = await same.set(next).executeTakeFirst();
      return Number(released.numUpdatedRows) === 1;
    },
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;
