// A Parquet file written on a thread of its own (parquet-worker.ts), with ParquetFile's surface: the rows' cells cross
// to the worker through a ring of shared 1 MiB buffers, and the worker builds the Arrow batches and runs the
// WebAssembly writer, so a pass on this thread and the Parquet encoding overlap (docs/performance.md). `write` stays
// synchronous: when every buffer waits for the worker, it blocks on the ring (Atomics.wait) until one is free, which
// bounds the memory as the in-thread writer's `caughtUp` does.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { type Column, TracemillError } from "@tracemill/core";
import { outputError } from "./output-file.js";
import type { ParquetFileOptions } from "./parquet-file.js";
import {
  ENDED,
  FAILED,
  type FromWorker,
  type ParquetWorkerData,
  SLOT_BYTES,
  SLOTS,
  STATE_WORDS,
  type ToWorker,
} from "./parquet-thread-protocol.js";

/**
 * The worker's module: beside this one when built (the engine's dist/, the CLI's bundle); from the built engine when
 * the engine runs from its sources (Vitest's `source` condition), since a worker thread gets none of Vitest's
 * transforms and the worker imports much of the engine (the test suite runs after the build).
 */
const fromSources = import.meta.url.endsWith(".ts");
function workerUrl(): URL {
  return new URL(fromSources ? "../../dist/output/parquet-worker.js" : "./parquet-worker.js", import.meta.url);
}

/** How long `write` waits for a free buffer before it calls the writer stuck. */
const STUCK_MS = 10 * 60 * 1000;

export class ParquetThreadFile {
  private readonly state = new Int32Array(new SharedArrayBuffer(4 * STATE_WORDS));
  private readonly slots: Uint8Array[] = [];
  private slot = 0;
  private used = 0;
  private failure: TracemillError | null = null;
  private reply: ((message: FromWorker) => void) | null = null;
  private ended = false;
  private readonly worker: Worker;

  private constructor(
    readonly path: string,
    schema: readonly Column[],
    options: ParquetFileOptions,
  ) {
    const buffers = Array.from({ length: SLOTS }, () => new SharedArrayBuffer(SLOT_BYTES));
    for (const buffer of buffers) this.slots.push(new Uint8Array(buffer));
    const data: ParquetWorkerData = {
      path,
      schema,
      options,
      state: this.state.buffer as SharedArrayBuffer,
      slots: buffers,
    };
    this.worker = new Worker(workerUrl(), {
      workerData: data,
      // From the sources, the process resolves packages to their sources (Vitest's `--conditions source`): the built
      // worker must not.
      ...(fromSources && { execArgv: [] }),
    });
    this.worker.on("message", (message: FromWorker) => {
      if (message.type === "failed") this.failure ??= this.workerError(message);
      this.answer(message);
    });
    this.worker.on("error", (error) => {
      this.failure ??= outputError(path, "could not be written as Parquet", error);
      this.answer({ type: "failed", code: null, message: error.message, context: {} });
    });
    this.worker.on("exit", () => {
      this.ended = true;
      this.answer({ type: "failed", code: null, message: "the writer ended", context: {} });
    });
    // Held only while an answer is awaited (next): a file its caller dropped must not keep the process alive.
    this.worker.unref();
  }

  /** Starts the worker, which creates `path`'s temporary file and loads the writer. */
  static async open(path: string, schema: readonly Column[], options: ParquetFileOptions): Promise<ParquetThreadFile> {
    const file = new ParquetThreadFile(path, schema, options);
    const opened = await file.next();
    if (opened.type !== "ready") throw file.failed();
    return file;
  }

  /** The rows of cells in bytes[start, end), in order (a RowSink). */
  write(bytes: Uint8Array, start: number, end: number): void {
    if (this.failure !== null || Atomics.load(this.state, FAILED) === 1) throw this.failed();
    const length = end - start;
    if (this.used + length > SLOT_BYTES) this.send();
    if (length > SLOT_BYTES) {
      // Cells are read as 64-bit words: the copy's buffer is a whole number of them.
      const copy = new Uint8Array((length + 7) & ~7);
      copy.set(bytes.subarray(start, end));
      this.post({ type: "rows", bytes: copy, length });
      return;
    }
    this.slots[this.slot].set(bytes.subarray(start, end), this.used);
    this.used += length;
  }

  /** Nothing piles up here (`write` waits for the ring): lets the worker's messages in. */
  async caughtUp(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.failure !== null) throw this.failure;
  }

  /** Hands over the last rows, has the worker end the file with `summary` in its footer, and waits for it. */
  async commit(summary: string): Promise<void> {
    if (this.failure === null) this.send();
    this.post({ type: "commit", summary });
    const answer = await this.next();
    if (answer.type !== "done") throw this.failed();
  }

  /** Has the worker stop and remove the temporary file; removes it here when the worker is gone. */
  async discard(): Promise<void> {
    this.failure ??= outputError(this.path, "was discarded", new Error("discarded"));
    this.post({ type: "discard" });
    await this.next();
    fs.rmSync(`${this.path}.partial`, { force: true });
  }

  /** Hands the current buffer to the worker and takes the next one, waiting until the worker has freed it. */
  private send(): void {
    if (this.used === 0) return;
    Atomics.store(this.state, this.slot, this.used);
    this.post({ type: "slot", slot: this.slot });
    this.slot = (this.slot + 1) % SLOTS;
    this.used = 0;
    const deadline = Date.now() + STUCK_MS;
    for (;;) {
      // Waits only while the slot still holds the length seen: a slot freed in between is not slept on.
      const waiting = Atomics.load(this.state, this.slot);
      if (waiting === 0) return;
      if (Atomics.load(this.state, FAILED) === 1 || Atomics.load(this.state, ENDED) === 1) throw this.failed();
      if (Date.now() > deadline) {
        throw outputError(this.path, "could not be written as Parquet", new Error("the writer stopped taking rows"));
      }
      Atomics.wait(this.state, this.slot, waiting, 1000);
    }
  }

  private post(message: ToWorker): void {
    try {
      this.worker.postMessage(message);
    } catch {
      // The worker has ended: the failure says why.
    }
  }

  /** The worker's next answer (or its end). */
  private next(): Promise<FromWorker> {
    if (this.ended) return Promise.resolve({ type: "failed", code: null, message: "the writer ended", context: {} });
    this.worker.ref();
    return new Promise((resolve) => {
      this.reply = resolve;
    });
  }

  private answer(message: FromWorker): void {
    const reply = this.reply;
    this.reply = null;
    if (reply === null) return;
    this.worker.unref();
    reply(message);
  }

  private workerError(message: Extract<FromWorker, { type: "failed" }>): TracemillError {
    if (message.code !== null) {
      return new TracemillError(message.code as TracemillError["code"], message.message, message.context);
    }
    return outputError(this.path, "could not be written as Parquet", new Error(message.message));
  }

  private failed(): TracemillError {
    return (
      this.failure ?? outputError(this.path, "could not be written as Parquet", new Error("the writer thread failed"))
    );
  }
}
