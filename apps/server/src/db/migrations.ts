// Migrations kept in code (no files to ship); Kysely's Migrator applies the missing ones at start. One set for SQLite
// and PostgreSQL: text (ids, ISO-8601 times, JSON), integer (counts, 0/1 flags), bigint (sizes) mean the same on
// both; the differences are floatType and 0005's triggers (PostgreSQL only).
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import { isPostgres } from "./dialect.js";
import { listColumns } from "./list-columns.js";

/** The PostgreSQL notification channel on which the queue announces work (migration 0005, queue-signals.ts). */
export const QUEUE_CHANNEL = "tracemill_queue";

/** An 8-byte float on both: PostgreSQL's `real` has 4 bytes (six digits), SQLite's `real` has 8. */
const floatType = (db: Kysely<unknown>) => (isPostgres(db) ? "double precision" : "real");

/** Every migration by name, applied in name order (exported for the test that migrates a database step by step). */
export const migrations: Record<string, Migration> = {
  "0001-initial": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("email_key", "text", (c) => c.notNull().unique())
        .addColumn("password_hash", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("files")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("owner_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addColumn("sha256", "text", (c) => c.notNull())
        .addColumn("format", "text", (c) => c.notNull())
        .addColumn("compression", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("jobs")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("owner_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("public", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("capability", "text", (c) => c.notNull())
        .addColumn("params", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("percent", floatType(db), (c) => c.notNull().defaultTo(0))
        .addColumn("stage", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("error", "text")
        .addColumn("summary", "text")
        .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("started_at", "text")
        .addColumn("finished_at", "text")
        .execute();
      await db.schema.createIndex("jobs_owner").on("jobs").columns(["owner_id", "created_at"]).execute();
      await db.schema.createIndex("jobs_status").on("jobs").columns(["status", "created_at"]).execute();
      await db.schema.createIndex("jobs_public").on("jobs").columns(["public", "created_at"]).execute();
      await db.schema
        .createTable("job_inputs")
        .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("file_id", "text", (c) => c.notNull().references("files.id"))
        .addPrimaryKeyConstraint("job_inputs_pk", ["job_id", "role"])
        .execute();
      await db.schema
        .createTable("job_outputs")
        .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("job_outputs_pk", ["job_id", "name"])
        .execute();
    },
  },
  "0002-output-sha256": {
    // Outputs carry their SHA-256 (computed by the worker), so a job's output can become another job's input
    // without the server reading it whole.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("job_outputs").addColumn("sha256", "text").execute();
    },
  },
  "0003-job-leases": {
    // A running job names the process that claimed it and until when that claim holds (renewed while it runs), so
    // several processes can share the queue and a job whose worker died goes back to it.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("jobs").addColumn("worker_id", "text").execute();
      await db.schema.alterTable("jobs").addColumn("lease_expires_at", "text").execute();
    },
  },
  "0004-job-attempts": {
    // Runs started per job, so a job whose runs keep ending their worker (a crash, a full disk) fails after a few
    // instead of being queued again for ever.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("jobs")
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0005-queue-signals": {
    // PostgreSQL only: a job becoming queued, or a cancel being asked, is announced on QUEUE_CHANNEL, so idle pools
    // wake at once instead of polling (queue-signals.ts). Triggers catch every way in (a new job, a re-queue, another
    // program). SQLite has no such signal; its pools poll.
    async up(db: Kysely<unknown>) {
      if (!isPostgres(db)) return;
      await sql`
        create function tracemill_queue_signal() returns trigger language plpgsql as $$
        begin
          perform pg_notify(${sql.lit(QUEUE_CHANNEL)}, '');
          return null;
        end $$`.execute(db);
      await sql`
        create trigger jobs_queued after insert on jobs for each row when (new.status = 'queued')
        execute function tracemill_queue_signal()`.execute(db);
      await sql`
        create trigger jobs_requeued_or_cancelled after update of status, cancel_requested on jobs for each row
        when ((new.status = 'queued' and old.status <> 'queued') or (new.cancel_requested = 1 and old.cancel_requested = 0))
        execute function tracemill_queue_signal()`.execute(db);
    },
  },
  "0006-job-parts": {
    // A job over several captures runs as one part per capture (child jobs in the same queue, so every guarantee of
    // the queue holds for each part), then combines their outputs; job_inputs keeps the order the captures came in.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("jobs").addColumn("parent_id", "text").execute();
      await db.schema.alterTable("jobs").addColumn("part_index", "integer").execute();
      await db.schema
        .alterTable("jobs")
        .addColumn("part_count", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex("jobs_parent_id").on("jobs").column("parent_id").execute();
      // A role may now hold several files: the key gains the position. SQLite cannot change a key in place, so the
      // table is made anew on both.
      await db.schema
        .createTable("job_inputs_by_position")
        .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("file_id", "text", (c) => c.notNull().references("files.id"))
        .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("job_inputs_position_pk", ["job_id", "role", "position"])
        .execute();
      await sql`insert into job_inputs_by_position (job_id, role, file_id, position)
        select job_id, role, file_id, 0 from job_inputs`.execute(db);
      await db.schema.dropTable("job_inputs").execute();
      await db.schema.alterTable("job_inputs_by_position").renameTo("job_inputs").execute();
    },
  },
  "0007-libraries": {
    // Capture libraries (directories an administrator registers, read in place) and a cache of what their files are,
    // keyed by (library, path) and valid while the file's size and modification time stay the same: hashing and the
    // info pass read a whole capture, once per version of it. A file row may stand for a library's file instead of
    // a stored one (library, library_path), so jobs take it as an input like any other file.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("libraries")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("dir", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("library_entries")
        .addColumn("library", "text", (c) => c.notNull().references("libraries.name").onDelete("cascade"))
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addColumn("mtime_ms", floatType(db), (c) => c.notNull())
        .addColumn("sha256", "text")
        .addColumn("format", "text", (c) => c.notNull())
        .addColumn("compression", "text")
        .addColumn("info", "text")
        .addColumn("checked_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("library_entries_pk", ["library", "path"])
        .execute();
      await db.schema.alterTable("files").addColumn("library", "text").execute();
      await db.schema.alterTable("files").addColumn("library_path", "text").execute();
    },
  },
  "0008-job-list-columns": {
    // The job lists sort and filter in SQL by what only a finished run knows (jobs/list-columns.ts): its sessions,
    // the bytes of its outputs and whether its result is suspect. Jobs that succeeded before get them from their
    // summary and outputs here.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("jobs").addColumn("sessions", "bigint").execute();
      await db.schema.alterTable("jobs").addColumn("output_bytes", "bigint").execute();
      await db.schema
        .alterTable("jobs")
        .addColumn("warning_count", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      // The lists' filters and their count, and the default order (newest first, then by id) with any offset, read
      // these alone; a job's parts are never listed.
      for (const [name, scope] of [
        ["jobs_list_owner", "owner_id"],
        ["jobs_list_public", "public"],
      ] as const) {
        await db.schema.createIndex(name).on("jobs").columns([scope, "parent_id", "created_at", "id"]).execute();
      }
      const done = await sql<{ id: string; summary: string }>`
        select id, summary from jobs where status = 'succeeded' and summary is not null`.execute(db);
      for (const row of done.rows) {
        const { sessions, warning_count } = listColumns(parsedSummary(row.summary), []);
        await sql`update jobs set sessions = ${sessions}, warning_count = ${warning_count} where id = ${row.id}`.execute(
          db,
        );
      }
      await sql`update jobs set output_bytes =
        (select coalesce(sum(size), 0) from job_outputs where job_outputs.job_id = jobs.id)
        where status = 'succeeded'`.execute(db);
    },
  },
  "0009-file-lineage": {
    // A file brought in from a job's output remembers that job and output, so a job's inputs link to the jobs that
    // made them (GET /api/jobs/:id/lineage); the index finds the jobs that used a job's outputs. Files brought in
    // before this migration carry no such record: a match by name and hash could not tell them from an upload.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("files").addColumn("source_job_id", "text").execute();
      await db.schema.alterTable("files").addColumn("source_output", "text").execute();
      await db.schema.createIndex("files_source_job").on("files").column("source_job_id").execute();
    },
  },
  "0010-file-digests": {
    // An upload is kept once per user and content: each upload, and the browser's look-up before it, finds the
    // user's files with a digest, which this index answers without reading the user's every file.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("files_owner_sha256").on("files").columns(["owner_id", "sha256"]).execute();
    },
  },
};

/** A stored summary as an object; one that does not parse counts as empty rather than stopping the migration. */
function parsedSummary(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Any 64-bit number that other users of the same PostgreSQL database are unlikely to lock: "tracemil" in ASCII. */
const MIGRATION_LOCK = 0x74726163656d696cn.toString();
/** How long a process waits for another one's migration on SQLite before it gives up. */
const SQLITE_WAIT_MS = 30_000;

/**
 * Several processes starting at once (a server and its workers) migrate one after the other, and those after the first
 * find nothing left to do. The lock covers the whole of Kysely's Migrator, including the creation of its own tables,
 * which its own lock does not cover.
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await withAdvisoryLock(db);
  else await inImmediateTransaction(db);
}

/** PostgreSQL: a session-level advisory lock, held on one connection of the pool while others migrate. */
async function withAdvisoryLock(db: Kysely<unknown>): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK}::bigint)`.execute(connection);
    try {
      await migrate(db);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK}::bigint)`.execute(connection);
    }
  });
}

/**
 * SQLite: one write transaction (BEGIN IMMEDIATE takes the write lock at once) around the migration, which SQLite's
 * transactional DDL then applies whole or not at all. The wait for the lock is a loop here, not SQLite's busy timeout:
 * better-sqlite3 waits synchronously, which would stall this process's event loop, and with it a holder in the same
 * process.
 */
async function inImmediateTransaction(db: Kysely<unknown>): Promise<void> {
  const [setting] = (await sql<{ timeout: number }>`pragma busy_timeout`.execute(db)).rows;
  await sql`pragma busy_timeout = 0`.execute(db);
  const deadline = Date.now() + SQLITE_WAIT_MS;
  try {
    for (;;) {
      try {
        await sql`begin immediate`.execute(db);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  } finally {
    await sql.raw(`pragma busy_timeout = ${Number(setting?.timeout ?? 0)}`).execute(db);
  }
  try {
    await migrate(db);
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
}

async function migrate(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
