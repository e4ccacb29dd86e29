// The session workers' supervision: a failure on the reading thread's side of a worker's messages fails the run.
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { F_TIME, R_KIND, RecordType } from "./shard-ring.js";
import { ShardWorkers } from "./shard-workers.js";

describe("ShardWorkers", () => {
  it("fails the run, not the process, when handling a worker's rows throws", async () => {
    const options = {
      idleTimeoutNs: 120e9,
      activeTimeoutNs: 1800e9,
      rowSpillPrefix: path.join(os.tmpdir(), "tracemill-never-spilled"),
      rowMemoryBytes: 1 << 20,
    };
    const workers = new ShardWorkers(1, options, () => {
      throw new Error("merge broke");
    });
    try {
      await workers.ready();
      // The end of an empty capture: the worker flushes and sends its (empty) last rows.
      const ring = workers.rings[0];
      const w = ring.next();
      ring.words[w + R_KIND] = RecordType.End << 24;
      ring.numbers[w / 2 + F_TIME] = 0;
      ring.done();
      ring.publish(true);
      await expect(workers.results()).rejects.toThrow(/session worker 1 failed: merge broke/);
    } finally {
      await workers.stop();
    }
  });
});
