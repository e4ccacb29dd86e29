// Ends worker threads without the teardown race of Node 20, and lets a process wait for the ones still ending.
//
// Node 20 takes a worker's isolate off its platform before it disposes of it (node_worker.cc, and the main isolate
// on a natural exit alike). An optimizing compile still running on a background thread for that isolate may then ask
// for the isolate's task runner and abort the whole process ("NodePlatform::ForIsolate ... Assertion failed").
// Compiles are queued only while the isolate runs JavaScript and take tens of milliseconds at most, so a worker left
// idle for a while before it is terminated has none running.
import type { Worker } from "node:worker_threads";

/** How long a worker that ran the session pipeline stays idle before it is terminated. */
export const BUSY_WORKER_QUIET_MS = 200;
/** The same for a worker whose own code is a few lines (hashing: the work is native). */
export const SMALL_WORKER_QUIET_MS = 50;

const ending = new Set<Promise<void>>();

/**
 * Terminates `worker` once it has been idle for `quietMs` (the caller has given it no more work and told it to stop
 * whatever it was doing). The returned promise, also held until it settles for `workersRetired`, never rejects.
 */
export function retire(worker: Worker, quietMs: number): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    setTimeout(() => {
      worker.terminate().then(
        () => resolve(),
        () => resolve(),
      );
    }, quietMs);
  });
  ending.add(ended);
  void ended.then(() => ending.delete(ended));
  return ended;
}

/**
 * Resolves once every worker handed to `retire` so far has ended. A process that ends itself with `process.exit`
 * calls this first: exiting terminates the workers still running at once, quiet or not.
 */
export async function workersRetired(): Promise<void> {
  while (ending.size > 0) await Promise.all(ending);
}
