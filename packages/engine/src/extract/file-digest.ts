// SHA-256 of the input for the run summary, on a worker thread: of the chunks the capture reader has already read
// (shared buffers, no copy) when they are handed over, and of the rest of the file read on the worker otherwise.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import type { ChunkTap } from "../capture/index.js";
import { retire, SMALL_WORKER_QUIET_MS } from "../threads/retire.js";

// Synchronous reads into one reused buffer for the bytes not handed over: a stream would allocate (and page-fault
// in) a fresh buffer per chunk, which costs more CPU than the hashing itself.
const WORKER_SOURCE = `
  const { parentPort, workerData } = require("node:worker_threads");
  const fs = require("node:fs");
  const { file, stop } = workerData;
  const stopped = new Int32Array(stop);
  const hash = require("node:crypto").createHash("sha256");
  const buffers = [];
  let hashed = 0;
  parentPort.on("message", (message) => {
    try {
      if (message.buffer !== undefined) {
        buffers.push(new Uint8Array(message.buffer));
      } else if (message.chunk !== undefined) {
        hash.update(buffers[message.chunk].subarray(0, message.length));
        hashed += message.length;
        parentPort.postMessage({ released: message.chunk });
      } else if (file === null) {
        parentPort.postMessage({ digest: hash.digest("hex") });
      } else {
        const buffer = Buffer.allocUnsafe(1 << 20);
        const fd = fs.openSync(file, "r");
        try {
          for (let n; stopped[0] === 0 && (n = fs.readSync(fd, buffer, 0, buffer.length, hashed)) > 0; hashed += n) {
            hash.update(buffer.subarray(0, n));
          }
        } finally {
          fs.closeSync(fd);
        }
        parentPort.postMessage({ digest: hash.digest("hex") });
      }
    } catch (error) {
      parentPort.postMessage({ error: error.message });
    }
  });
`;

interface WorkerMessage {
  released?: number;
  digest?: string;
  error?: string;
}

/**
 * The SHA-256 of one file. Give `tap` to the capture reader (readCapture's `tap` option): the bytes it reads go to
 * the worker in file order, in buffers shared with it, each released for reuse once hashed. `result()` ends the
 * hand-over; the worker then reads the bytes it did not get (all of them for gzip input or an unused tap, the rest
 * when reading stopped at damage), so the digest is always of the whole file as stored. A pipe's bytes all come
 * through the tap (the reader drains it to its end).
 */
export class FileDigest {
  readonly tap: ChunkTap;
  private readonly worker: Worker;
  private readonly digest: Promise<string>;
  private readonly buffers: Buffer[] = [];
  /** Per buffer: resolves its pending release, or null when it is free. */
  private readonly releases: ((() => void) | null)[] = [];
  private readonly waits: Promise<void>[] = [];
  private ended = false;
  private stopped = false;
  /** Set when the digest is no longer wanted: the worker leaves its read loop and stays idle until it is retired. */
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));

  constructor(file: string) {
    // A pipe cannot be read again: the reader hands over every byte of it (CaptureInput.drain), and the worker reads
    // nothing itself (opening a FIFO again would wait for a writer).
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    const piped = stat !== undefined && (stat.isFIFO() || stat.isSocket());
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: piped ? null : file, stop: this.stopFlag.buffer },
    });
    this.digest = new Promise<string>((resolve, reject) => {
      this.worker.on("message", (message: WorkerMessage) => {
        if (message.released !== undefined) return this.release(message.released);
        // Cancelled, or failed already: a digest now would be of part of the file.
        if (this.stopped) return;
        this.stop();
        if (message.digest !== undefined) resolve(message.digest);
        else reject(new Error(message.error));
      });
      this.worker.once("error", (error) => {
        this.stop();
        reject(error);
      });
    });
    this.digest.catch(() => {});
    this.tap = {
      allocate: (bytes) => {
        const shared = new SharedArrayBuffer(bytes);
        this.buffers.push(Buffer.from(shared));
        this.releases.push(null);
        this.waits.push(Promise.resolve());
        this.worker.postMessage({ buffer: shared });
        return this.buffers[this.buffers.length - 1];
      },
      take: (buffer, length) => {
        if (this.stopped || this.ended) return;
        const index = this.buffers.indexOf(buffer);
        this.waits[index] = new Promise<void>((resolve) => {
          this.releases[index] = resolve;
        });
        this.worker.postMessage({ chunk: index, length });
      },
      released: (buffer) => this.waits[this.buffers.indexOf(buffer)] ?? Promise.resolve(),
      declined: () => this.end(),
    };
  }

  /** The digest in hex, once the worker has hashed the file's remaining bytes; no chunk is taken after this call. */
  result(): Promise<string> {
    this.end();
    return this.digest;
  }

  /** Stops the worker (result() then never settles). */
  cancel(): void {
    this.stop();
  }

  private end(): void {
    if (this.ended || this.stopped) return;
    this.ended = true;
    this.worker.postMessage({ end: true });
  }

  private release(index: number): void {
    const resolve = this.releases[index];
    this.releases[index] = null;
    resolve?.();
  }

  /** The worker is done or gone: nothing more is hashed, and no reader waits for a buffer. */
  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    Atomics.store(this.stopFlag, 0, 1);
    void retire(this.worker, SMALL_WORKER_QUIET_MS);
    for (let i = 0; i < this.releases.length; i++) this.release(i);
  }
}

/** The file's SHA-256 in hex, read on a worker thread. */
export function sha256OfFile(file: string): Promise<string> {
  return new FileDigest(file).result();
}

/**
 * The SHA-256 of each input of a pass over several (readCaptureFiles' `eachInput`): one digest at a time, since each
 * is a worker thread, its result taken once its input is read. An input whose digest is `given` (by position) is not
 * hashed: the given digest is recorded.
 */
export class InputDigests {
  readonly sha256: string[] = [];
  private current: FileDigest | null = null;

  constructor(
    private readonly inputs: readonly string[],
    private readonly given: readonly (string | undefined)[] = [],
  ) {}

  readonly eachInput = (index: number) => {
    const given = this.given[index];
    if (given !== undefined) {
      this.sha256[index] = given;
      return undefined;
    }
    const digest = new FileDigest(this.inputs[index]);
    this.current = digest;
    return {
      tap: digest.tap,
      finished: async () => {
        this.sha256[index] = await digest.result();
        this.current = null;
      },
    };
  };

  /** Stops the digest under way, if any. */
  cancel(): void {
    this.current?.cancel();
  }
}
