// The repository suite every database backend must pass: SQLite (repositories-sqlite) and PostgreSQL (repositories-postgres).
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/connect.js";
import { filesRepository } from "../src/repositories/files.js";
import { jobPartsRepository } from "../src/repositories/job-parts.js";
import { jobsRepository } from "../src/repositories/jobs.js";
import { sessionsRepository, usersRepository } from "../src/repositories/users.js";

export const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

export const user = (id: string, email: string) => ({
  id,
  user_name: id,
  email,
  email_key: email.toLowerCase(),
  password_hash: "x",
  created_at: at(0),
});

export const file = (id: string, owner: string) => ({
  id,
  owner_id: owner,
  name: `${id}.pcap`,
  size: 5_000_000_000,
  sha256: "0".repeat(64),
  format: "pcap",
  compression: null,
  created_at: at(0),
});

/** A job row as the service writes it, queued at the given minute; `extra` overrides any column. */
export const job = (id: string, owner: string, minute: number, extra: Record<string, unknown> = {}) => ({
  id,
  owner_id: owner,
  title: id,
  description: "",
  public: 0,
  capability: "extract",
  params: "{}",
  status: "queued",
  percent: 0,
  stage: "queued",
  error: null,
  summary: null,
  cancel_requested: 0,
  attempts: 0,
  created_at: at(minute),
  started_at: null,
  finished_at: null,
  ...extra,
});

/**
 * `newTarget` names a new, empty database (a SQLite file's path or a `postgres://` URL); each case opens its own, so
 * every case also migrates from nothing.
 */
export function repositorySuite(name: string, newTarget: () => Promise<string>): void {
  const open = async () => openDatabase(await newTarget());
  describe(`repositories on ${name}`, () => {
    it("migrates a new database once when several processes open it at the same time", async () => {
      const target = await newTarget();
      const dbs = await Promise.all([1, 2, 3, 4].map(() => openDatabase(target)));
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(dbs[0]);
      expect(applied.rows.map((row) => row.name)).toEqual([
        "0001-initial",
        "0002-output-sha256",
        "0003-job-leases",
        "0004-job-attempts",
        "0005-queue-signals",
        "0006-job-parts",
        "0007-libraries",
        "0008-job-list-columns",
        "0009-file-lineage",
        "0010-file-digests",
      ]);
      await Promise.all(dbs.map((db) => db.destroy()));
      // Opened again, it finds nothing left to do.
      await (await openDatabase(target)).destroy();
    });

    it("gives back sizes beyond 32 bits and fractional percents as the numbers they were", async () => {
      const db = await open();
      await usersRepository(db).insert(user("u1", "a@b.org"));
      await filesRepository(db).insert(file("f1", "u1"));
      const jobs = jobsRepository(db);
      await jobs.insert(job("j1", "u1", 1), [{ role: "capture", fileId: "f1" }]);
      await jobs.update("j1", { percent: 100 / 3 });
      const [input] = await jobs.inputsOf(["j1"]);
      expect(input.size).toBe(5_000_000_000);
      expect((await jobs.byId("j1"))?.percent).toBe(33.333333333333336);
      await db.destroy();
    });

    it("keeps emails unique whatever their case, and finds sessions only until they expire", async () => {
      const db = await open();
      const users = usersRepository(db);
      const sessions = sessionsRepository(db);
      expect(await users.insert(user("u1", "Ada@Example.org"))).toBe(true);
      expect(await users.insert(user("u2", "ada@example.ORG"))).toBe(false);
      expect((await users.byEmailKey("ada@example.org"))?.email).toBe("Ada@Example.org");
      await sessions.insert({ id: "s1", user_id: "u1", created_at: at(0), expires_at: at(10) });
      expect((await sessions.userOf("s1", at(5)))?.user_name).toBe("u1");
      expect(await sessions.userOf("s1", at(10))).toBeUndefined();
      await sessions.removeExpired(at(11));
      expect(await sessions.userOf("s1", at(0))).toBeUndefined();
      await db.destroy();
    });

    it("queues jobs oldest first, moves them only from the expected state, and re-queues interrupted ones", async () => {
      const db = await open();
      await usersRepository(db).insert(user("u1", "a@b.org"));
      await filesRepository(db).insert(file("f1", "u1"));
      const jobs = jobsRepository(db);
      await jobs.insert(job("late", "u1", 2), [{ role: "capture", fileId: "f1" }]);
      await jobs.insert(job("early", "u1", 1), [{ role: "capture", fileId: "f1" }]);
      expect(await jobs.claimNext("w1", at(3), at(4))).toBe("early");
      expect(await jobs.transition("early", ["queued"], { status: "running" })).toBe(false);
      expect(await jobs.claimNext("w2", at(3), at(4))).toBe("late");
      expect(await jobs.claimNext("w2", at(3), at(4))).toBeUndefined();
      // Only the holder writes to a claimed job.
      expect(await jobs.updateClaimed("early", "w2", { percent: 50 })).toBe(false);
      expect(await jobs.updateClaimed("early", "w1", { percent: 40 })).toBe(true);
      await jobs.renewLeases("w2", ["late"], at(8));
      await jobs.insert(job("doomed", "u1", 3, { status: "running", cancel_requested: 1 }), []);
      const claims = await jobs.runningClaims();
      expect(claims.map((c) => [c.id, c.worker_id, c.lease_expires_at]).sort()).toEqual([
        ["doomed", null, null],
        ["early", "w1", at(4)],
        ["late", "w2", at(8)],
      ]);
      const early = claims.find((c) => c.id === "early")!;
      // Each claim counts a run.
      expect(claims.map((c) => [c.id, c.attempts]).sort()).toEqual([
        ["doomed", 0],
        ["early", 1],
        ["late", 1],
      ]);
      const again = { status: "queued", stage: "again", worker_id: null, lease_expires_at: null };
      // A claim renewed since it was read is not released.
      await jobs.renewLeases("w1", ["early"], at(9));
      expect(await jobs.release(early, at(5), again)).toBe(false);
      expect(await jobs.release({ ...early, lease_expires_at: at(9) }, at(10), again)).toBe(true);
      // A cancel asked wins over whatever the releasing process had in mind.
      expect(await jobs.release(claims.find((c) => c.id === "doomed")!, at(10), again)).toBe(true);
      const requeued = await jobs.byId("early");
      expect([requeued?.status, requeued?.stage, requeued?.worker_id, requeued?.owner_name]).toEqual([
        "queued",
        "again",
        null,
        "u1",
      ]);
      expect((await jobs.byId("doomed"))?.status).toBe("cancelled");
      expect((await jobs.byId("late"))?.status).toBe("running");
      // Claimed again, the count goes on from where it was.
      expect(await jobs.claimNext("w3", at(11), at(12))).toBe("early");
      expect((await jobs.runningClaims()).find((c) => c.id === "early")?.attempts).toBe(2);
      await db.destroy();
    });

    it("keeps a job's captures in order, its parts out of lists and claims, and moves it only while it waits", async () => {
      const db = await open();
      await usersRepository(db).insert(user("u1", "a@b.org"));
      const files = filesRepository(db);
      await files.insert(file("f1", "u1"));
      await files.insert(file("f2", "u1"));
      const jobs = jobsRepository(db);
      const parts = jobPartsRepository(db);
      const part = (id: string, index: number, fileId: string) => ({
        job: job(id, "u1", 1, { parent_id: "p", part_index: index }),
        inputs: [{ role: "capture", fileId }],
      });
      await jobs.insert(
        job("p", "u1", 1, { status: "running", part_count: 2 }),
        [
          { role: "capture", fileId: "f2", position: 0 },
          { role: "capture", fileId: "f1", position: 1 },
        ],
        [part("p1", 1, "f1"), part("p0", 0, "f2")],
      );
      expect((await jobs.inputsOf(["p"])).map((i) => i.name)).toEqual(["f2.pcap", "f1.pcap"]);
      expect((await jobs.listByOwner("u1")).map((j) => j.id)).toEqual(["p"]);
      // Waiting for its parts, the job is held by no worker, and no pool takes it for one whose worker is gone.
      expect(await jobs.runningClaims()).toEqual([]);
      expect((await parts.partsOf(["p"])).map((p) => [p.id, p.capture])).toEqual([
        ["p0", "f2.pcap"],
        ["p1", "f1.pcap"],
      ]);
      expect(await jobs.claimNext("w1", at(2), at(3))).toBe("p0");
      expect(await parts.updateWaiting("p", { stage: "1 of 2" })).toBe(true);
      await parts.cancelParts("p", at(4));
      const after = await parts.partsOf(["p"]);
      expect(after.map((p) => p.status)).toEqual(["running", "cancelled"]);
      expect((await jobs.stateOf(["p0"]))[0].cancel_requested).toBe(1);
      // Once queued again (to combine), it no longer waits: only its own run moves it.
      await jobs.update("p", { status: "queued" });
      expect(await parts.updateWaiting("p", { stage: "x" })).toBe(false);
      expect(await files.unsharedInputsOf(["p", "p0", "p1"])).toEqual(expect.arrayContaining(["f1", "f2"]));
      await jobs.remove("p");
      expect(await jobs.byId("p0")).toBeUndefined();
      expect(await parts.partsOf(["p"])).toEqual([]);
      await db.destroy();
    });

    it("stores outputs in order, sizes beyond 32 bits, and finds inputs no other job shares", async () => {
      const db = await open();
      await usersRepository(db).insert(user("u1", "a@b.org"));
      const files = filesRepository(db);
      await files.insert(file("shared", "u1"));
      await files.insert(file("own", "u1"));
      const jobs = jobsRepository(db);
      await jobs.insert(job("j1", "u1", 1), [
        { role: "capture", fileId: "shared" },
        { role: "attacks", fileId: "own" },
      ]);
      await jobs.insert(job("j2", "u1", 2), [{ role: "capture", fileId: "shared" }]);
      expect(await files.unsharedInputsOf(["j1"])).toEqual(["own"]);
      expect(await jobs.claimNext("w1", at(3), at(4))).toBe("j1");
      const recorded = [
        { job_id: "j1", name: "b.csv", kind: "features-csv", size: 6_000_000_000, sha256: "ab".repeat(32) },
        { job_id: "j1", name: "a.json", kind: "summary-json", size: 2, sha256: null },
      ];
      // Only the holder of the claim records a success, and with it the outputs.
      expect(await jobs.succeed("j1", "w2", recorded, { status: "succeeded" })).toBe(false);
      expect(await jobs.outputsOf(["j1"])).toEqual([]);
      expect(await jobs.succeed("j1", "w1", recorded, { status: "succeeded" })).toBe(true);
      expect((await jobs.byId("j1"))?.status).toBe("succeeded");
      const outputs = await jobs.outputsOf(["j1"]);
      expect(outputs.map((o) => o.name)).toEqual(["b.csv", "a.json"]);
      expect(Number(outputs[0].size)).toBe(6_000_000_000);
      expect(outputs.map((o) => o.sha256)).toEqual(["ab".repeat(32), null]);
      expect(Number((await jobs.inputsOf(["j1"])).find((i) => i.role === "capture")?.size)).toBe(5_000_000_000);
      await jobs.remove("j1");
      expect(await jobs.byId("j1")).toBeUndefined();
      expect(await files.unsharedInputsOf(["j2"])).toEqual(["shared"]);
      await db.destroy();
    });
  });
}
