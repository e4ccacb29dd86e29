// Deflates completed images' scanlines on a worker thread, so the session pass goes on while zlib works (wall time,
// not CPU time). Scanlines live in shared memory; jobs go in batches (a message costs more than deflating a small
// image) and compressed bytes come back transferred, one buffer per batch, in submission order.
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { TracemillError } from "@tracemill/core";
import { DEFLATE } from "./grayscale-png.js";

/**
 * Deflates each job with `zlib.deflateSync` (the same call and options as on the main thread: the same bytes).
 * Messages: a shared block `{ block, buffer }` once, then batches `{ jobs }` of (image, block, offset, length).
 */
const WORKER_SOURCE = `
const zlib = require("node:zlib");
const { workerData } = require("node:worker_threads");
const { port, done, options } = workerData;
const blocks = [];
port.on("message", (message) => {
  if (message.buffer) {
    blocks[message.block] = new Uint8Array(message.buffer);
    return;
  }
  const jobs = message.jobs;
  try {
    const outs = [];
    let total = 0;
    for (let i = 0; i < jobs.length; i += 4) {
      const out = zlib.deflateSync(blocks[jobs[i + 1]].subarray(jobs[i + 2], jobs[i + 2] + jobs[i + 3]), options);
      outs.push(out);
      total += out.length;
    }
    const data = new Uint8Array(total);
    const lengths = [];
    let at = 0;
    for (const out of outs) {
      data.set(out, at);
      at += out.length;
      lengths.push(out.length);
    }
    port.postMessage({ jobs, lengths, data }, [data.buffer]);
  } catch (error) {
    port.postMessage({ jobs, error: String((error && error.message) || error) });
  }
  Atomics.add(done, 0, 1);
  Atomics.notify(done, 0);
});
`;

/** Scanline bytes gathered before a batch is sent. */
const BATCH_BYTES = 1 << 18;

/** No answer for this long while waiting means the worker is gone (it deflates a few MB at most per image). */
const STALL_MS = 60_000;

interface Answer {
  jobs: number[];
  lengths?: number[];
  data?: Uint8Array;
  error?: string;
}

export class PngWorker {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** Answers posted so far, counted by the worker: what a blocked wait watches. */
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private failure: Error | null = null;
  /** Shared blocks already sent, by their number. */
  private readonly blocks = new Map<ArrayBufferLike, number>();
  private batch: number[] = [];
  private batchBytes = 0;
  /** Jobs submitted and not yet answered. */
  pending = 0;

  /** `options` are zlib's (the images' `DEFLATE` unless a test needs others). */
  constructor(options: object = DEFLATE) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: channel.port2, done: this.done, options },
      transferList: [channel.port2],
    });
    this.worker.on("error", (error) => {
      this.failure ??= error;
    });
    // The pass never waits on the event loop for it: answers are taken synchronously with `receiveMessageOnPort`.
    this.worker.unref();
  }

  /** Queues `scanlines` (a view of a SharedArrayBuffer, left untouched until answered) as image `image`. */
  submit(image: number, scanlines: Uint8Array): void {
    let block = this.blocks.get(scanlines.buffer);
    if (block === undefined) {
      block = this.blocks.size;
      this.blocks.set(scanlines.buffer, block);
      this.port.postMessage({ block, buffer: scanlines.buffer });
    }
    this.batch.push(image, block, scanlines.byteOffset, scanlines.byteLength);
    this.batchBytes += scanlines.byteLength;
    this.pending++;
    if (this.batchBytes >= BATCH_BYTES) this.send();
  }

  /** Hands every answer already there to `take`, in submission order, without waiting. */
  poll(take: (image: number, data: Uint8Array) => void): void {
    for (let message = receiveMessageOnPort(this.port); message; message = receiveMessageOnPort(this.port)) {
      const answer = message.message as Answer;
      const jobs = answer.jobs;
      this.pending -= jobs.length / 4;
      if (answer.error !== undefined) {
        throw new TracemillError("TOOL_FAILED", `image ${jobs[0]}: deflate failed: ${answer.error}`, {
          image: jobs[0],
        });
      }
      const data = answer.data!;
      let at = 0;
      for (let i = 0; i < jobs.length; i += 4) {
        const length = answer.lengths![i / 4];
        take(jobs[i], data.subarray(at, at + length));
        at += length;
      }
    }
  }

  /** Blocks until at most `limit` jobs are pending, handing answers to `take` as they come. */
  drain(limit: number, take: (image: number, data: Uint8Array) => void): void {
    this.send();
    let waited = 0;
    while (this.pending > limit) {
      // Read the count before looking at the port: an answer posted after the look changes it, ending the wait.
      const seen = Atomics.load(this.done, 0);
      const before = this.pending;
      this.poll(take);
      if (this.pending < before) {
        waited = 0;
        continue;
      }
      if (this.failure) throw new TracemillError("TOOL_FAILED", `image encoder: ${this.failure.message}`, {});
      if (Atomics.wait(this.done, 0, seen, 1000) !== "timed-out") continue;
      waited += 1000;
      if (waited >= STALL_MS) {
        throw new TracemillError("TOOL_FAILED", "image encoder thread stopped answering", { pending: this.pending });
      }
    }
  }

  private send(): void {
    if (this.batch.length === 0) return;
    this.port.postMessage({ jobs: this.batch });
    this.batch = [];
    this.batchBytes = 0;
  }

  /** Stops the worker (after the last image, or on an error or a cancel). */
  close(): void {
    this.port.close();
    void this.worker.terminate();
  }
}
