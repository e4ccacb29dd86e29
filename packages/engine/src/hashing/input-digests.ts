// The SHA-256 of a run's input files, from the bytes its passes read where it can. In "worker" mode one worker thread
// (hash-worker.ts) hashes them: a reader of a plain file or a pipe reads each chunk into a slot of a ring shared with
// the worker (Atomics: no copy, no event-loop turn) while a slot is free; what was not fed the worker reads from the
// file itself, so the digest is of the whole file as stored. In "first-pass" mode the chunks are hashed on the
// reading thread as they are read (no second core to gain, and no worker to pay for).
import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { TracemillError } from "@tracemill/core/errors";
import { type ChunkTap, DEFAULT_CHUNK_BYTES } from "../input/index.js";
import {
  CONSUMED,
  controlWords,
  DOORBELL,
  ENDED,
  type HashWorkerMessage,
  PUBLISHED,
  SLOTS,
  STOP,
  word,
} from "./feed-layout.js";
import { startHashWorker } from "./hash-workers.js";

export type HashingPlace = "worker" | "first-pass";

/**
 * The worker when there is a second core and the one-minute load average is below the number of cores plus one;
 * else the first pass: on a busy machine the worker's hashing costs more CPU than the main thread's and saves no wall
 * time (bench/merge). The extra one is the run itself: merges run back to back on an otherwise idle 2-core machine (a
 * benchmark, a queue of jobs) raise the average with their own worker and write threads, and a threshold of the core
 * count alone sent them to the slower first pass.
 */
export function defaultHashingPlace(): HashingPlace {
  const cores = os.availableParallelism();
  return cores > 1 && os.loadavg()[0] < cores + 1 ? "worker" : "first-pass";
}

/** A regular file up to this size is hashed on the thread that reads it: a worker's start costs more than that. */
export const SMALL_INPUT_BYTES = 32 << 20;

/**
 * Where a pass that reads `file` alone hashes it: on its own thread when it is a small regular file, else on a worker
 * (a pipe's size is unknown; a larger file's hashing would add to the pass's time on one thread).
 */
export function hashingPlaceFor(file: string): HashingPlace {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat?.isFile() && stat.size <= SMALL_INPUT_BYTES ? "first-pass" : "worker";
}

export interface InputDigestsOptions {
  /** Where inputs are hashed; default "worker". */
  place?: HashingPlace;
  /**
   * A reader that finds every slot of its input's ring still being hashed waits for one (true), or reads on alone
   * and the worker reads the rest of the file itself (false, the default): a pass much faster than hashing (the
   * merge's first pass) would otherwise go at the hashing's pace, while the extra read costs the worker little, on its
   * own core.
   */
  wait?: boolean;
  /** Bytes of a ring slot: the chunk size the readers read with; default DEFAULT_CHUNK_BYTES. */
  slotBytes?: number;
}

/**
 * The digests of `files`. `given[i]` is input i's digest when the caller knows it, or null when none is wanted:
 * either way the input is not hashed. Give each reader `tap(i)` (CaptureInputOptions.tap); `all()` ends the feeding
 * and resolves to every digest. `close()` when done, however the run ended: it stops the worker.
 */
export class InputDigests {
  readonly place: HashingPlace;
  private readonly slotBytes: number;
  private readonly wait: boolean;
  private readonly control: Int32Array;
  private readonly lengths: Int32Array;
  private readonly rings: (Buffer | null)[];
  /** First-pass mode: the hash of each input so far (null when it is not hashed here). */
  private readonly hashes: (Hash | null)[];
  /** Per input: bytes handed over so far (feeding goes on only from exactly there), or -1 once ended. */
  private readonly fed: number[];
  /** Per input: a pipe, whose bytes the worker cannot read again (all of them are fed). */
  private readonly pipes: boolean[];
  private readonly digests: Promise<string | null>[];
  private readonly settle: ((digest: string | Error) => void)[] = [];
  private closed = false;

  constructor(
    private readonly files: readonly string[],
    given: readonly (string | null | undefined)[],
    options: InputDigestsOptions = {},
  ) {
    this.place = options.place ?? "worker";
    this.slotBytes = options.slotBytes ?? DEFAULT_CHUNK_BYTES;
    this.wait = options.wait ?? false;
    this.control = new Int32Array(new SharedArrayBuffer(4 * controlWords(files.length)));
    this.lengths = new Int32Array(new SharedArrayBuffer(4 * SLOTS * files.length));
    const hashed = files.map((_, i) => given[i] === undefined);
    const inWorker = this.place === "worker";
    this.rings = hashed.map((h) => (h && inWorker ? Buffer.from(new SharedArrayBuffer(SLOTS * this.slotBytes)) : null));
    this.hashes = hashed.map((h) => (h && !inWorker ? createHash("sha256") : null));
    this.fed = hashed.map((h) => (h ? 0 : -1));
    this.pipes = files.map((file, i) => hashed[i] && isPipe(file));
    this.digests = files.map((_, i) => {
      if (!hashed[i]) return Promise.resolve(given[i] ?? null);
      const digest = new Promise<string>((resolve, reject) => {
        this.settle[i] = (result) => (typeof result === "string" ? resolve(result) : reject(result));
      });
      digest.catch(() => {});
      return digest;
    });
    if (inWorker && hashed.some((h) => h)) this.startWorker(hashed);
  }

  /** What a reader of input i hands its bytes to (CaptureInputOptions.tap); undefined when it is not hashed. */
  tap(input: number): ChunkTap | undefined {
    if (this.fed[input] < 0) return undefined;
    return {
      buffer: (position, bytes) => this.slot(input, position, bytes),
      take: (position, bytes) => this.take(input, position, bytes),
      end: () => this.end(input),
    };
  }

  /** True when the bytes of input i from `position` on are the next the hashing needs. */
  wants(input: number, position: number): boolean {
    return this.fed[input] === position;
  }

  /** No more bytes of input i will be fed: the worker reads what it was not given from the file. */
  end(input: number): void {
    if (this.fed[input] < 0) return;
    this.fed[input] = -1;
    Atomics.store(this.control, word(input, ENDED), 1);
    this.ring();
    // First pass: the partial hash of this thread cannot move to a worker, which hashes the whole file instead.
    if (this.hashes[input] !== null) {
      this.hashes[input] = null;
      this.startWorker(this.files.map((_, i) => i === input));
    }
  }

  /** Input i's digest (null when none was wanted); ends its feeding first. */
  result(input: number): Promise<string | null> {
    this.end(input);
    return this.digests[input];
  }

  /** Every input's digest (null where none was wanted); ends the feeding first. */
  all(): Promise<(string | null)[]> {
    for (let i = 0; i < this.files.length; i++) this.end(i);
    return Promise.all(this.digests);
  }

  /** No digest is wanted any more (the run ended, however): the worker stops, and digests still due never come. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fed.fill(-1);
    Atomics.store(this.control, STOP, 1);
    this.ring();
    this.wakeReaders();
  }

  /** The slot to read input i's bytes at `position` into, when the hashing wants them there (see ChunkTap.buffer). */
  private slot(input: number, position: number, bytes: number): Buffer | null | Promise<Buffer | null> {
    const ring = this.rings[input];
    if (ring === null || bytes > this.slotBytes || !this.wants(input, position)) return null;
    const published = this.control[word(input, PUBLISHED)];
    const consumed = Atomics.load(this.control, word(input, CONSUMED));
    if (published - consumed < SLOTS) {
      const at = (published % SLOTS) * this.slotBytes;
      return ring.subarray(at, at + this.slotBytes);
    }
    if (!this.wait && !this.pipes[input]) {
      // Run ahead: the worker reads the rest of the file itself, beside the passes (a pipe's reader always waits).
      this.end(input);
      return null;
    }
    return waitForChange(this.control, word(input, CONSUMED), consumed).then(() => this.slot(input, position, bytes));
  }

  /**
   * Input i's bytes at `position` were read: published when they are in its ring's next slot, hashed here in
   * first-pass mode; read anywhere else, the worker reads them (and the rest) from the file. None: the file's end.
   */
  private take(input: number, position: number, bytes: Uint8Array): void {
    if (!this.wants(input, position)) return;
    const hash = this.hashes[input];
    if (bytes.length === 0) {
      if (hash === null) {
        this.end(input);
        return;
      }
      this.fed[input] = -1;
      this.hashes[input] = null;
      this.settle[input](hash.digest("hex"));
      return;
    }
    if (hash !== null) {
      hash.update(bytes);
      this.fed[input] += bytes.length;
      return;
    }
    const ring = this.rings[input];
    const published = this.control[word(input, PUBLISHED)];
    const inSlot = ring !== null && bytes.buffer === ring.buffer;
    if (!inSlot || bytes.byteOffset !== ring.byteOffset + (published % SLOTS) * this.slotBytes) {
      // A pipe cannot be read again: a digest of the bytes fed so far would be of part of it.
      if (this.pipes[input]) this.settle[input](this.hashingError(input, "the pipe was read past the hashing"));
      this.end(input);
      return;
    }
    this.lengths[input * SLOTS + (published % SLOTS)] = bytes.length;
    this.fed[input] += bytes.length;
    Atomics.store(this.control, word(input, PUBLISHED), published + 1);
    this.ring();
  }

  /** A worker hashing the inputs marked in `which` (from their rings, then from their files). */
  private startWorker(which: readonly boolean[]): void {
    const worker = startHashWorker({
      inputs: this.files.map((file, i) => (which[i] ? { file: this.pipes[i] ? null : file } : null)),
      control: this.control.buffer as SharedArrayBuffer,
      lengths: this.lengths.buffer as SharedArrayBuffer,
      rings: this.rings.map((ring) => (ring?.buffer as SharedArrayBuffer | undefined) ?? null),
      slotBytes: this.slotBytes,
    });
    worker.on("message", (message: HashWorkerMessage) =>
      this.settle[message.input]?.(
        "digest" in message ? message.digest : this.hashingError(message.input, message.error),
      ),
    );
    worker.once("error", (error) => this.failed(which, error.message));
    worker.once("exit", (code) => this.failed(which, `the hashing worker stopped (exit code ${code})`));
  }

  /** A worker stopped: its inputs' digests not settled yet fail with its error, and no reader feeds or waits for it. */
  private failed(which: readonly boolean[], reason: string): void {
    if (this.closed) return;
    which.forEach((mine, i) => {
      if (!mine) return;
      this.settle[i]?.(this.hashingError(i, reason));
      this.fed[i] = -1;
    });
    this.wakeReaders();
  }

  /** Input i could not be hashed: the run fails as a tool failure naming the file (no digest to record). */
  private hashingError(input: number, reason: string): TracemillError {
    const file = this.files[input];
    return new TracemillError("TOOL_FAILED", `${file}: SHA-256 not computed: ${reason}`, { file });
  }

  private ring(): void {
    Atomics.add(this.control, DOORBELL, 1);
    Atomics.notify(this.control, DOORBELL);
  }

  /** Readers waiting for a slot look again (and find that the hashing wants no more). */
  private wakeReaders(): void {
    for (let i = 0; i < this.files.length; i++) Atomics.notify(this.control, word(i, CONSUMED));
  }
}

/** A FIFO, socket or standard input: its bytes can be read only once. */
function isPipe(file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && (stat.isFIFO() || stat.isSocket());
}

/** Atomics.waitAsync, which the ES2022 library does not declare. */
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };

/** Resolves once `array[index]` is no longer `value` (or was not at the call). */
async function waitForChange(array: Int32Array, index: number, value: number): Promise<void> {
  const wait = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(array, index, value);
  if (wait.async) await wait.value;
}
