// The queue's suite every database backend must pass (queue-sqlite, queue-postgres): claims racing from several
// processes, and the re-queueing of runs whose worker is gone, up to the limit of runs.
import { describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../src/db/connect.js";
import { afterLostRun, handedBack, MAX_RUNS } from "../src/jobs/lost-runs.js";
import { filesRepository } from "../src/repositories/files.js";
import { jobsRepository } from "../src/repositories/jobs.js";
import { usersRepository } from "../src/repositories/users.js";
import { file, job, user } from "./repository-suite.js";

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** A database with one user, one file and `count` queued jobs created a second apart (`job-00` is the oldest). */
async function withQueuedJobs(target: string, count: number): Promise<{ db: Db; ids: string[] }> {
  const db = await openDatabase(target);
  await usersRepository(db).insert(user("u1", "a@b.org"));
  await filesRepository(db).insert(file("f1", "u1"));
  const ids = Array.from({ length: count }, (_, i) => `job-${String(i).padStart(2, "0")}`);
  const jobs = jobsRepository(db);
  for (const [i, id] of ids.entries()) {
    await jobs.insert(job(id, "u1", 0, { created_at: at(i) }), [{ role: "capture", fileId: "f1" }]);
  }
  return { db, ids };
}

/** Claims jobs for `workerId` until the queue is empty, one claim at a time as a worker pool does. */
async function claimAll(db: Db, workerId: string): Promise<string[]> {
  const jobs = jobsRepository(db);
  const claimed: string[] = [];
  for (;;) {
    const id = await jobs.claimNext(workerId, at(100), at(130));
    if (!id) return claimed;
    claimed.push(id);
  }
}

export function queueSuite(name: string, newTarget: () => Promise<string>): void {
  describe(`queue on ${name}`, () => {
    it("never gives one job to two of several processes racing to claim them", async () => {
      const target = await newTarget();
      const { db, ids } = await withQueuedJobs(target, 40);
      // Each claimer has a connection of its own, as separate worker processes do.
      const claimers = await Promise.all(["w1", "w2", "w3"].map(() => openDatabase(target)));
      try {
        const claimed = await Promise.all(claimers.map((claimer, i) => claimAll(claimer, `w${i + 1}`)));
        const all = claimed.flat();
        expect(all.length).toBe(ids.length);
        expect([...all].sort()).toEqual(ids);
        // Each claimer took its jobs oldest first, and the database names it as their holder, with one run each.
        for (const mine of claimed) expect([...mine].sort()).toEqual(mine);
        const holders = new Map(claimed.flatMap((mine, i) => mine.map((id) => [id, `w${i + 1}`] as const)));
        const rows = await jobsRepository(db).runningClaims();
        expect(rows.map((row) => [row.id, row.worker_id, row.attempts]).sort()).toEqual(
          ids.map((id) => [id, holders.get(id), 1]),
        );
      } finally {
        await Promise.all([db, ...claimers].map((each) => each.destroy()));
      }
    });

    it("queues a lost run again until the job was started the most times, then fails it; a hand-back is free", async () => {
      const { db } = await withQueuedJobs(await newTarget(), 1);
      const jobs = jobsRepository(db);
      try {
        const claim = async () => (await jobs.runningClaims()).find((c) => c.id === "job-00")!;
        // A pool stopping in good order hands its run back without counting it.
        expect(await jobs.claimNext("leaving", at(1), at(31))).toBe("job-00");
        expect(await jobs.release(await claim(), at(2), handedBack(await claim()))).toBe(true);
        for (let run = 1; run <= MAX_RUNS; run++) {
          expect(await jobs.claimNext(`w${run}`, at(10 * run), at(10 * run + 30))).toBe("job-00");
          const lost = await claim();
          expect([lost.worker_id, lost.attempts]).toEqual([`w${run}`, run]);
          expect(await jobs.release(lost, at(10 * run + 31), afterLostRun(lost, at(10 * run + 31)))).toBe(true);
          const job = await jobs.byId("job-00");
          expect([job?.status, job?.worker_id, job?.lease_expires_at]).toEqual(
            run < MAX_RUNS ? ["queued", null, null] : ["failed", `w${run}`, null],
          );
        }
        expect((await jobs.byId("job-00"))?.error).toMatch(/^The job's process ended unexpectedly 3 times/);
        expect(await jobs.claimNext("w4", at(100), at(130))).toBeUndefined();
      } finally {
        await db.destroy();
      }
    });
  });
}
