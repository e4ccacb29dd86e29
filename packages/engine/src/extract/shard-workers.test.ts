// The session workers' supervision: a failure on the reading thread's side of a worker's messages fails the run.
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUSY_WORKER_QUIET_MS } from "../threads/retire.js";
import { F_SEC, R_KIND, RecordType } from "./shard-ring.js";
import { ShardWorkers } from "./shard-workers.js";

const options = {
  idleTimeoutNs: 120e9,
  activeTimeoutNs: 1800e9,
  rowSpillPrefix: path.join(os.tmpdir(), "tracemill-never-spilled"),
  rowMemoryBytes: 1 << 20,
};

/** The end of an empty capture: the worker flushes and sends its (empty) last rows. */
function endCapture(workers: ShardWorkers, worker: number): void {
  const ring = workers.rings[worker];
  const w = ring.next();
  ring.words[w + R_KIND] = RecordType.End << 24;
  ring.numbers[w / 2 + F_SEC] = 0;
  ring.done();
  ring.publish(true);
}

describe("ShardWorkers", () => {
  it("fails the run, not the process, when handling a worker's rows throws", async () => {
    const workers = new ShardWorkers(1, options, () => {
      throw new Error("merge broke");
    });
    try {
      await workers.ready();
      endCapture(workers, 0);
      await expect(workers.results()).rejects.toThrow(/session worker 1 failed: merge broke/);
    } finally {
      await workers.stop();
    }
  });

  it("ends the workers' threads only after they have idled for the quiet time (threads/retire.ts)", async () => {
    const workers = new ShardWorkers(2, options, () => {});
    await workers.ready();
    endCapture(workers, 0);
    endCapture(workers, 1);
    const results = await workers.results();
    expect(results.map((result) => result.sessions.total)).toEqual([0, 0]);
    const start = performance.now();
    await workers.stop();
    expect(performance.now() - start).toBeGreaterThanOrEqual(BUSY_WORKER_QUIET_MS - 5);
  });
});
