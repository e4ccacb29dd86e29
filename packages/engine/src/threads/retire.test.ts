// retire: a finished worker thread is terminated only after a quiet time, and a process can wait for all of them.
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { retire, workersRetired } from "./retire.js";

/** A worker that stays alive, idle, until it is terminated; `exitedAt` is when its thread ended. */
function idleWorker(): { worker: Worker; exitedAt: () => number | null } {
  const worker = new Worker(`require("node:worker_threads").parentPort.on("message", () => {});`, { eval: true });
  let exitedAt: number | null = null;
  worker.once("exit", () => {
    exitedAt = performance.now();
  });
  return { worker, exitedAt: () => exitedAt };
}

describe("retire", () => {
  it("terminates an idle worker once its quiet time has passed, and workersRetired waits for that", async () => {
    const { worker, exitedAt } = idleWorker();
    await new Promise((resolve) => worker.once("online", resolve));
    const start = performance.now();
    const ended = retire(worker, 150);
    await workersRetired();
    expect(exitedAt()).not.toBeNull();
    expect(exitedAt()! - start).toBeGreaterThanOrEqual(145);
    await expect(ended).resolves.toBeUndefined();
  });

  it("waits for every worker being retired, the last one too", async () => {
    const first = idleWorker();
    const second = idleWorker();
    retire(first.worker, 20);
    retire(second.worker, 120);
    await workersRetired();
    expect(first.exitedAt()).not.toBeNull();
    expect(second.exitedAt()).not.toBeNull();
  });

  it("settles for a worker that had already ended, and at once when none is ending", async () => {
    const worker = new Worker("", { eval: true });
    await new Promise((resolve) => worker.once("exit", resolve));
    await expect(retire(worker, 10)).resolves.toBeUndefined();
    // Nothing to wait for: settled within this turn of the event loop, before an immediate callback runs.
    const first = await Promise.race([
      workersRetired().then(() => "retired"),
      new Promise((resolve) => setImmediate(() => resolve("next turn"))),
    ]);
    expect(first).toBe("retired");
  });
});
