// SHA-256 of the merge's inputs, from the bytes the first pass reads where it can. In "worker" mode one worker
// thread hashes them: the first pass over a plain file reads into a slot of a ring shared with the worker while a
// slot is free (Atomics: no copy, no event-loop turn); once it runs ahead, the worker reads the rest itself. In
// "first-pass" mode the first pass's chunks are hashed on the main thread as they are read (no second core to gain,
// and no worker to pay for). Either way, what was not fed a worker reads from the file itself, so the digest is of
// the whole file.
import { createHash, type Hash } from "node:crypto";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { TracemillError } from "@tracemill/core/errors";
import { retire, SMALL_WORKER_QUIET_MS } from "../threads/retire.js";

export type HashingPlace = "worker" | "first-pass";

/**
 * The worker when there is a second core and the one-minute load average is below the number of cores plus one;
 * else the first pass: on a busy machine the worker's hashing cost about 0.6 CPU-s more per 2.4 GB than the main
 * thread's (bench/merge). The extra one is the run itself: merges run back to back on an otherwise idle 2-core
 * machine (a benchmark, a queue of jobs) keep the average at 1.3–2.4 with their worker and write threads, and a
 * threshold of the core count alone sent them to the slower first pass (bench-large: main thread 2.7–3.2 CPU-s
 * against 1.1–1.5, losing to mergecap).
 */
export function defaultHashingPlace(): HashingPlace {
  const cores = os.availableParallelism();
  return cores > 1 && os.loadavg()[0] < cores + 1 ? "worker" : "first-pass";
}

/** Ring slots per input: how far (in chunks) a pass may run ahead of the hashing before the worker reads alone. */
const SLOTS = 4;
// Control words: [0] doorbell (bumped on every publish or end), [1] stop; then per input i, at 2 + 3i:
// chunks published, chunks consumed (hashed, slot free again), feeding ended (the worker reads the rest).
const DOORBELL = 0;
const STOP = 1;
const PUBLISHED = 0;
const CONSUMED = 1;
const ENDED = 2;
const word = (input: number, field: number) => 2 + 3 * input + field;

// Plain CommonJS evaluated by the worker: no module file to resolve, whether running from src or dist.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const crypto = require("node:crypto");
const { files, control, lengths, rings, slots, slotBytes } = workerData;
const ctl = new Int32Array(control);
const lens = new Int32Array(lengths);
const word = (input, field) => 2 + 3 * input + field;
const inputs = files.map((file, i) => file === null ? null : {
  file, ring: rings[i] && new Uint8Array(rings[i]), hash: crypto.createHash("sha256"), hashed: 0, consumed: 0,
});
let left = inputs.filter((input) => input !== null).length;
const chunk = Buffer.allocUnsafe(1 << 20);
// One chunk of what input was not fed, read from its file; true at the end of the file. A chunk at a time, so the
// other input's ring is served in between: a pass may be waiting for one of its slots.
function restChunk(input) {
  if (input.fd === undefined) input.fd = fs.openSync(input.file, "r");
  const n = fs.readSync(input.fd, chunk, 0, chunk.length, input.hashed);
  if (n > 0) {
    input.hash.update(chunk.subarray(0, n));
    input.hashed += n;
    return false;
  }
  fs.closeSync(input.fd);
  input.fd = undefined;
  return true;
}
while (left > 0 && Atomics.load(ctl, 1) === 0) {
  const bell = Atomics.load(ctl, 0);
  let progress = false;
  inputs.forEach((input, i) => {
    if (input === null) return;
    const published = Atomics.load(ctl, word(i, 0));
    while (input.consumed < published) {
      const slot = input.consumed % slots;
      const length = lens[i * slots + slot];
      input.hash.update(input.ring.subarray(slot * slotBytes, slot * slotBytes + length));
      input.hashed += length;
      Atomics.store(ctl, word(i, 1), ++input.consumed);
      Atomics.notify(ctl, word(i, 1));
      progress = true;
    }
    if (Atomics.load(ctl, word(i, 2)) === 0 || input.consumed < Atomics.load(ctl, word(i, 0))) return;
    progress = true;
    try {
      if (!restChunk(input)) return;
      parentPort.postMessage({ input: i, digest: input.hash.digest("hex") });
    } catch (error) {
      if (input.fd !== undefined) fs.closeSync(input.fd);
      parentPort.postMessage({ input: i, error: error.message });
    }
    inputs[i] = null;
    left--;
    progress = true;
  });
  if (!progress) Atomics.wait(ctl, 0, bell);
}
// Idle a while before the thread ends (see threads/retire.ts).
setTimeout(() => {}, ${SMALL_WORKER_QUIET_MS});
`;

interface WorkerMessage {
  input: number;
  digest?: string;
  error?: string;
}

export class DigestFeed {
  private readonly workers: Worker[] = [];
  private readonly control = new Int32Array(new SharedArrayBuffer(4 * (2 + 3 * 2)));
  private readonly lengths = new Int32Array(new SharedArrayBuffer(4 * SLOTS * 2));
  private readonly rings: (Buffer | null)[];
  /** First-pass mode: the hash of each input so far (null when it is not hashed here). */
  private readonly hashes: (Hash | null)[];
  /** Per input: bytes handed over so far (feeding goes on only from exactly there), or -1 once ended. */
  private readonly fed: number[];
  private readonly digests: Promise<string>[];
  private readonly settle: ((digest: string | Error) => void)[] = [];

  /**
   * `given[i]` is input i's digest when the caller knows it (not hashed); `slotBytes` must be the chunk size
   * the passes read with.
   */
  constructor(
    private readonly files: [string, string],
    given: (string | undefined)[],
    readonly slotBytes: number,
    readonly place: HashingPlace = "worker",
  ) {
    const hashed = files.map((_, i) => given[i] === undefined);
    const inWorker = place === "worker";
    this.rings = hashed.map((h) => (h && inWorker ? Buffer.from(new SharedArrayBuffer(SLOTS * slotBytes)) : null));
    this.hashes = hashed.map((h) => (h && !inWorker ? createHash("sha256") : null));
    this.digests = files.map((_, i) => {
      if (given[i] !== undefined) return Promise.resolve(given[i]);
      const digest = new Promise<string>((resolve, reject) => {
        this.settle[i] = (result) => (typeof result === "string" ? resolve(result) : reject(result));
      });
      digest.catch(() => {});
      return digest;
    });
    this.fed = hashed.map((h) => (h ? 0 : -1));
    if (inWorker && hashed.some((h) => h)) this.startWorker(hashed);
  }

  /** True when bytes of input i from `position` on are the next the hashing needs. */
  wants(input: number, position: number): boolean {
    return this.fed[input] === position;
  }

  /** The slot to read input i's bytes at `position` into, when the worker wants them and a slot is free; else null. */
  slot(input: number, position: number): Buffer | null {
    const ring = this.rings[input];
    if (ring === null || !this.wants(input, position)) return null;
    const published = this.control[word(input, PUBLISHED)];
    if (published - Atomics.load(this.control, word(input, CONSUMED)) >= SLOTS) return null;
    const at = (published % SLOTS) * this.slotBytes;
    return ring.subarray(at, at + this.slotBytes);
  }

  /** Bytes [0, length) of the slot slot() gave last for input i were read: the worker hashes them next. */
  publish(input: number, length: number): void {
    const published = this.control[word(input, PUBLISHED)];
    this.lengths[input * SLOTS + (published % SLOTS)] = length;
    this.fed[input] += length;
    Atomics.store(this.control, word(input, PUBLISHED), published + 1);
    this.ring();
  }

  /**
   * First-pass mode: input i's bytes at `position` were read (outside the ring); hashed here when they are the
   * next ones. Empty bytes there mean the end of the file: the digest is complete.
   */
  take(input: number, position: number, bytes: Uint8Array): void {
    const hash = this.hashes[input];
    if (hash === null || !this.wants(input, position)) return;
    if (bytes.length > 0) {
      hash.update(bytes);
      this.fed[input] += bytes.length;
      return;
    }
    this.fed[input] = -1;
    this.settle[input](hash.digest("hex"));
  }

  /**
   * A pass found no free slot for the bytes of input i at `position` the worker needs next: it has run ahead, and
   * the worker reads the rest of the file itself, beside the passes. (Fed only by whichever pass kept up, the worker
   * sat idle through the first pass over bench-large and then held back the second; the extra read costs it about
   * 0.4 CPU-s per 2.4 GB, on its own core.)
   */
  outrun(input: number, position: number): void {
    if (this.rings[input] !== null && this.wants(input, position)) this.end(input);
  }

  /** No more bytes of input i will be fed: a worker reads what it was not given from the file. */
  end(input: number): void {
    if (this.fed[input] < 0) return;
    this.fed[input] = -1;
    Atomics.store(this.control, word(input, ENDED), 1);
    this.ring();
    // First pass: the main thread's partial hash cannot move to a worker, which hashes the whole file instead.
    if (this.hashes[input] !== null) this.startWorker(this.files.map((_, i) => i === input));
  }

  /** Both inputs' digests (ends feeding first). */
  all(): Promise<string[]> {
    this.end(0);
    this.end(1);
    return Promise.all(this.digests);
  }

  /** Stops the workers, whatever they are doing (the merge ended, however). */
  close(): void {
    if (this.workers.length === 0) return;
    Atomics.store(this.control, STOP, 1);
    this.ring();
    for (const worker of this.workers) void retire(worker, SMALL_WORKER_QUIET_MS);
  }

  /** A worker hashing the inputs marked in `which` (from their rings, then from the files). */
  private startWorker(which: boolean[]): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        files: this.files.map((file, i) => (which[i] ? file : null)),
        control: this.control.buffer,
        lengths: this.lengths.buffer,
        rings: this.rings.map((ring) => ring?.buffer ?? null),
        slots: SLOTS,
        slotBytes: this.slotBytes,
      },
    });
    worker.on("message", (message: WorkerMessage) =>
      this.settle[message.input]?.(message.digest ?? this.hashingError(message.input, message.error ?? "")),
    );
    worker.once("error", (error) => this.failed(which, error.message));
    worker.once("exit", (code) => this.failed(which, `the hashing worker stopped (exit code ${code})`));
    this.workers.push(worker);
  }

  /** A worker stopped: its inputs' digests not settled yet fail with its error, and no pass feeds it any more. */
  private failed(which: boolean[], reason: string): void {
    which.forEach((mine, i) => {
      if (!mine) return;
      this.settle[i]?.(this.hashingError(i, reason));
      this.fed[i] = -1;
    });
  }

  /** Input i could not be hashed: the run fails as a tool failure naming the file (a merge has no digest to record). */
  private hashingError(input: number, reason: string): TracemillError {
    const file = this.files[input];
    return new TracemillError("TOOL_FAILED", `${file}: SHA-256 not computed: ${reason}`, { file });
  }

  private ring(): void {
    Atomics.add(this.control, DOORBELL, 1);
    Atomics.notify(this.control, DOORBELL);
  }
}
