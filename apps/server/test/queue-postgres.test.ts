// Runs the queue suite on PostgreSQL (a throw-away cluster, a new database per case), and checks what only
// PostgreSQL has: a claim passes over a row another transaction holds instead of waiting for it, and the queue's
// signals (LISTEN/NOTIFY) that wake idle pools.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../src/db/connect.js";
import { listenToQueue } from "../src/db/queue-signals.js";
import { jobsRepository } from "../src/repositories/jobs.js";
import { usePostgresCluster } from "./postgres-cluster.js";
import { queueSuite } from "./queue-suite.js";

const cluster = usePostgresCluster();

queueSuite("PostgreSQL", () => cluster().createDatabase());

async function addUser(db: Db): Promise<void> {
  const user = { id: "u1", user_name: "u1", email: "a@b.org", email_key: "a@b.org", password_hash: "x" };
  await db
    .insertInto("users")
    .values({ ...user, created_at: "" })
    .execute();
}

async function addJob(db: Db, id: string, created: string): Promise<void> {
  await db
    .insertInto("jobs")
    .values({
      ...{ id, owner_id: "u1", title: id, description: "", public: 0, capability: "extract", params: "{}" },
      ...{ status: "queued", percent: 0, stage: "", cancel_requested: 0, attempts: 0, created_at: created },
    })
    .execute();
}

describe("queue on PostgreSQL", () => {
  it("claims the next free job at once while another claimer holds the oldest one's row", async () => {
    const target = await cluster().createDatabase();
    const db = await openDatabase(target);
    const holder = new pg.Client({ connectionString: target });
    await holder.connect();
    try {
      await addUser(db);
      await addJob(db, "old", "2026-01-01T00:00:00.000Z");
      await addJob(db, "new", "2026-01-01T00:00:01.000Z");
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM jobs WHERE id = 'old' FOR UPDATE");
      // Waiting for the lock would end only at the holder's COMMIT a second from now, and then take "old".
      const release = setTimeout(() => void holder.query("COMMIT"), 1000);
      const started = Date.now();
      const claimed = await jobsRepository(db).claimNext("w1", "2026-01-01T00:01:00.000Z", "2026-01-01T00:01:30.000Z");
      const waited = Date.now() - started;
      clearTimeout(release);
      expect(claimed).toBe("new");
      expect(waited).toBeLessThan(500);
      await holder.query("COMMIT");
      expect((await jobsRepository(db).byId("old"))?.status).toBe("queued");
    } finally {
      await holder.end();
      await db.destroy();
    }
  });

  it("signals a job queued, queued again or asked to cancel, and stays silent for progress and claims", async () => {
    const target = await cluster().createDatabase();
    const db = await openDatabase(target);
    // Another process's connection makes the changes, as a server does for a worker.
    const other = await openDatabase(target);
    let signals = 0;
    const listener = listenToQueue(db, () => signals++);
    /** The signals that arrive within 300 ms of the change. */
    const after = async (change: () => Promise<unknown>) => {
      const before = signals;
      await change();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return signals - before;
    };
    try {
      expect(listener).not.toBeNull();
      // The first signal comes from the listener itself, once it listens.
      const deadline = Date.now() + 5000;
      while (signals === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(signals).toBe(1);
      await addUser(other);
      const jobs = jobsRepository(other);
      const [at, until] = ["2026-01-01T00:01:00.000Z", "2026-01-01T00:01:30.000Z"];
      expect(await after(() => addJob(other, "j1", "2026-01-01T00:00:00.000Z"))).toBe(1);
      expect(await after(() => jobs.claimNext("w1", at, until))).toBe(0);
      expect(await after(() => jobs.updateClaimed("j1", "w1", { percent: 50, stage: "reading" }))).toBe(0);
      expect(await after(() => jobs.update("j1", { cancel_requested: 1 }))).toBe(1);
      expect(await after(() => jobs.update("j1", { cancel_requested: 1, stage: "still" }))).toBe(0);
      expect(await after(() => jobs.update("j1", { status: "queued", cancel_requested: 0 }))).toBe(1);
      await listener?.close();
      expect(await after(() => addJob(other, "j2", "2026-01-01T00:00:01.000Z"))).toBe(0);
    } finally {
      await listener?.close();
      await Promise.all([db.destroy(), other.destroy()]);
    }
  });
});
