// Migrations kept in code (no files to ship); Kysely's Migrator applies the missing ones at start.
import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";

const migrations: Record<string, Migration> = {
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
        .addColumn("percent", "real", (c) => c.notNull().defaultTo(0))
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
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
