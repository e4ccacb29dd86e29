// Starts and stops the session workers of `extract --threads N`: from the built JavaScript, or from the TypeScript
// sources (tests) through module hooks that transpile them, and collects their messages for the reading thread.
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { isTracemillError, TracemillError } from "@tracemill/core";
import type { ErrorCode } from "@tracemill/core/errors";
import { BUSY_WORKER_QUIET_MS, retire } from "../threads/retire.js";
import type { RowBatch, ShardDone, ShardMessage, WorkerSetup } from "./shard-protocol.js";
import { createRingMemory, RingWriter } from "./shard-ring.js";

/**
 * A session worker's young generation: little garbage is made per packet (times come as small integers), so a small
 * one costs no CPU, where V8's default grows to 16 MB semi-spaces in every worker (the 10 GB capture with `--threads
 * 2`: 990–1 002 MiB peak with the default, 930–943 MiB with this; docs/performance.md).
 */
const WORKER_YOUNG_GENERATION_MB = 8;

export interface ShardWorkerOptions {
  idleTimeoutNs: number;
  activeTimeoutNs: number;
  /** Worker i spills its waiting rows to `${rowSpillPrefix}-worker-${i}` beyond `rowMemoryBytes`. */
  rowSpillPrefix: string;
  rowMemoryBytes: number;
  /**
   * Tests only: worker `failWorker` throws at its `failAfterPackets`-th packet, or with `failByExit` ends its thread
   * there without reporting (as a worker killed for running out of memory would).
   */
  failWorker?: number;
  failAfterPackets?: number;
  failByExit?: boolean;
  /** Tests only: how long the reading thread waits for a worker that frees no ring record (STALL_LIMIT_MS). */
  stallLimitMs?: number;
}

/** The worker's script, and for the sources the options that let Node run TypeScript (ts-source-hooks.mjs). */
function workerScript(): { url: URL; execArgv?: string[] } {
  if (!import.meta.url.endsWith(".ts")) return { url: new URL("./shard-worker.js", import.meta.url) };
  const hooks = new URL("./ts-source-hooks.mjs", import.meta.url).href;
  const register = `import{register}from"node:module";register(${JSON.stringify(hooks)});`;
  return {
    url: new URL("./shard-worker.ts", import.meta.url),
    execArgv: ["--conditions=source", "--import", `data:text/javascript,${encodeURIComponent(register)}`],
  };
}

export class ShardWorkers {
  readonly rings: RingWriter[] = [];
  private readonly workers: Worker[] = [];
  private readonly returns: MessagePort[] = [];
  /** Where each worker's row batches arrive, and what takes one (onRows, its failure reported as the worker's). */
  private readonly rows: MessagePort[] = [];
  private readonly deliver: ((batch: RowBatch) => void)[] = [];
  private readonly finished: Promise<ShardDone>[] = [];
  private readonly started: Promise<void>[] = [];
  private failure: Error | null = null;
  private stopped = false;

  /** `onRows(worker, batch)` gets every row batch in the order each worker sent them. */
  constructor(count: number, options: ShardWorkerOptions, onRows: (worker: number, batch: RowBatch) => void) {
    const script = workerScript();
    try {
      for (let i = 0; i < count; i++) this.start(i, script, options, onRows);
    } catch (error) {
      // A worker that could not be created: those already started must not keep the process alive.
      for (const worker of this.workers) void worker.terminate();
      throw error;
    }
  }

  private start(
    i: number,
    script: { url: URL; execArgv?: string[] },
    options: ShardWorkerOptions,
    onRows: (worker: number, batch: RowBatch) => void,
  ): void {
    const memory = createRingMemory();
    this.rings.push(
      new RingWriter(
        memory,
        (stalled) => this.throwFailure(i, stalled),
        options.stallLimitMs,
        () => this.takeRows(),
      ),
    );
    const channel = new MessageChannel();
    this.returns.push(channel.port1);
    const rows = new MessageChannel();
    this.rows.push(rows.port1);
    const setup: WorkerSetup = {
      ring: memory,
      rows: rows.port2,
      returns: channel.port2,
      idleTimeoutNs: options.idleTimeoutNs,
      activeTimeoutNs: options.activeTimeoutNs,
      rowSpillPath: `${options.rowSpillPrefix}-worker-${i}`,
      rowMemoryBytes: options.rowMemoryBytes,
      failAfterPackets: options.failWorker === i ? (options.failAfterPackets ?? 0) : 0,
      failByExit: options.failByExit === true,
    };
    const worker = new Worker(script.url, {
      workerData: setup,
      transferList: [channel.port2, rows.port2],
      execArgv: script.execArgv,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    this.workers.push(worker);
    let started: () => void = () => {};
    this.started.push(
      new Promise<void>((resolve) => {
        started = resolve;
      }),
    );
    this.finished.push(
      new Promise<ShardDone>((resolve, reject) => {
        let settled = false;
        const failedWith = (error: Error) => {
          if (settled) return;
          settled = true;
          reject(this.fail(error));
        };
        const failed = (message: string, code?: string) => failedWith(workerError(i, message, code));
        this.deliver.push((batch) => {
          if (this.stopped) return;
          // A broken merge invariant fails the run; thrown from a message handler it would end the process.
          try {
            onRows(i, batch);
          } catch (error) {
            // The merge's own typed failure (writing the CSV or its temporary file) is the run's, not the worker's.
            if (isTracemillError(error)) failedWith(error);
            else failed(error instanceof Error ? error.message : String(error));
          }
        });
        rows.port1.on("message", this.deliver[i]);
        worker.on("message", (message: ShardMessage) => {
          if ("ready" in message) started();
          else if ("done" in message) {
            // Its last rows were posted before this message, on their own port: they are all there to take now.
            this.takeRowsOf(i);
            if (settled) return;
            settled = true;
            resolve(message);
          } else failed(message.error, message.code);
        });
        worker.once("error", (error) => failed(error.message));
        worker.once("exit", () => failed("it stopped before the end of the capture"));
      }),
    );
    this.finished[i].catch(() => {});
  }

  /** Gives a consumed batch's buffers back to its worker (which may be waiting for them: see RowOutbox). */
  recycle(worker: number, batch: RowBatch): void {
    if (this.stopped) return;
    this.returns[worker].postMessage(batch, [batch.bytes.buffer, batch.ends.buffer, batch.keys.buffer]);
    this.rings[worker].returned();
  }

  /**
   * Takes every row batch the workers have sent so far, at once (their message events would come only once this
   * thread is back in its event loop); throws the first failure, which the merge's may now be.
   */
  takeRows(): void {
    for (let i = 0; i < this.rows.length; i++) this.takeRowsOf(i);
    if (this.failure !== null) throw this.failure;
  }

  private takeRowsOf(worker: number): void {
    for (;;) {
      const message = receiveMessageOnPort(this.rows[worker]);
      if (message === undefined) return;
      this.deliver[worker](message.message as RowBatch);
    }
  }

  /**
   * Resolves once every worker has loaded its code (a worker that cannot start fails here, before any ring can fill
   * up with nobody to empty it); rejects with the first failure.
   */
  async ready(): Promise<void> {
    await Promise.race([Promise.all(this.started), Promise.all(this.finished)]);
  }

  /**
   * Throws the first worker failure known, or when `worker` has flagged a failure in its ring (or `stalled`: freed no
   * record for the stall limit) whose message has not arrived yet (this thread was blocked), an error that
   * `reported()` replaces with the worker's own failure when that arrives.
   */
  throwFailure(worker?: number, stalled = false): void {
    if (this.failure !== null) throw this.failure;
    if (worker !== undefined) throw new WorkerFlagged(worker, stalled);
  }

  /** The error to report for `error`: the worker's own failure once its message has come, when it flagged one. */
  async reported(error: unknown): Promise<unknown> {
    if (!(error instanceof WorkerFlagged)) return error;
    const waited = new Promise((resolve) => setTimeout(resolve, 5000).unref());
    return (
      (await Promise.race([
        this.finished[error.worker].then(
          () => null,
          (failure) => failure,
        ),
        waited,
      ])) ?? error
    );
  }

  /** Every worker's counts once it has sent its last rows; rejects with the first failure. */
  async results(signal?: AbortSignal): Promise<ShardDone[]> {
    let abort = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      abort = () => reject(new TracemillError("CANCELLED", "extraction was cancelled"));
    });
    cancelled.catch(() => {});
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
    try {
      return await Promise.race([Promise.all(this.finished), cancelled]);
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }

  /** Stops every worker (after the results, or on failure or cancellation); none is left to keep the process alive. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const ring of this.rings) ring.stop();
    for (const port of this.returns) port.close();
    for (const port of this.rows) port.close();
    await Promise.all(this.workers.map((worker) => retire(worker, BUSY_WORKER_QUIET_MS)));
  }

  private fail(error: Error): Error {
    this.failure ??= error;
    return this.failure;
  }
}

/** A worker set its ring's failure flag while this thread waited for room in it. */
class WorkerFlagged extends Error {
  constructor(
    readonly worker: number,
    stalled: boolean,
  ) {
    super(`session worker ${worker + 1} failed${stalled ? ": it took no packet for too long" : ""}`);
  }
}

function workerError(worker: number, message: string, code?: string): Error {
  const text = `session worker ${worker + 1} failed: ${message}`;
  return code === undefined ? new Error(text) : new TracemillError(code as ErrorCode, text);
}
