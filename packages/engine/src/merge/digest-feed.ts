// SHA-256 of the merge's inputs on one worker thread, fed the bytes both passes read anyway: a pass reading a
// plain file on the main thread reads into a slot of a ring shared with the worker whenever those are the next
// bytes the worker needs and a slot is free (Atomics: no copy, no event-loop turn). What it is not fed, the
// worker reads from the file itself once feeding ends, so the digest is always of the whole file as stored.
import { Worker } from "node:worker_threads";

/** Ring slots per input: how far (in chunks) a pass may run ahead of the hashing before it stops feeding. */
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
const inputs = files.map((file, i) =>
  file === null ? null : { file, ring: new Uint8Array(rings[i]), hash: crypto.createHash("sha256"), hashed: 0, consumed: 0 });
let left = inputs.filter((input) => input !== null).length;
function rest(input) {
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(input.file, "r");
  try {
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, input.hashed)) > 0; input.hashed += n) {
      input.hash.update(buffer.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
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
    try {
      rest(input);
      parentPort.postMessage({ input: i, digest: input.hash.digest("hex") });
    } catch (error) {
      parentPort.postMessage({ input: i, error: error.message });
    }
    inputs[i] = null;
    left--;
    progress = true;
  });
  if (!progress) Atomics.wait(ctl, 0, bell);
}
`;

interface WorkerMessage {
  input: number;
  digest?: string;
  error?: string;
}

// Atomics.waitAsync is in Node 16+ but not in the ES2022 library types this package compiles against.
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeout: number,
    ): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

export class DigestFeed {
  private readonly worker: Worker | null;
  private readonly control = new Int32Array(new SharedArrayBuffer(4 * (2 + 3 * 2)));
  private readonly lengths = new Int32Array(new SharedArrayBuffer(4 * SLOTS * 2));
  private readonly rings: (Buffer | null)[];
  /** Per input: bytes handed over so far (feeding goes on only from exactly there), or -1 once ended. */
  private readonly fed: number[];
  private readonly digests: Promise<string>[];
  private readonly settle: ((digest: string | Error) => void)[] = [];

  /**
   * `given[i]` is input i's digest when the caller knows it (not hashed); `slotBytes` must be the chunk size
   * the passes read with.
   */
  constructor(
    files: [string, string],
    given: (string | undefined)[],
    readonly slotBytes: number,
  ) {
    this.rings = files.map((_, i) =>
      given[i] === undefined ? Buffer.from(new SharedArrayBuffer(SLOTS * slotBytes)) : null,
    );
    this.digests = files.map((_, i) => {
      if (given[i] !== undefined) return Promise.resolve(given[i]);
      const digest = new Promise<string>((resolve, reject) => {
        this.settle[i] = (result) => (typeof result === "string" ? resolve(result) : reject(result));
      });
      digest.catch(() => {});
      return digest;
    });
    this.fed = this.rings.map((ring) => (ring === null ? -1 : 0));
    if (this.rings.every((ring) => ring === null)) {
      this.worker = null;
      return;
    }
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        files: files.map((file, i) => (this.rings[i] === null ? null : file)),
        control: this.control.buffer,
        lengths: this.lengths.buffer,
        rings: this.rings.map((ring) => ring?.buffer ?? null),
        slots: SLOTS,
        slotBytes,
      },
    });
    this.worker.on("message", (message: WorkerMessage) =>
      this.settle[message.input]?.(message.digest ?? new Error(message.error)),
    );
    this.worker.once("error", (error) => this.failed(error));
    this.worker.once("exit", (code) => this.failed(new Error(`the hashing worker stopped (exit code ${code})`)));
  }

  /** True when bytes of input i from `position` on are the next the worker needs. */
  wants(input: number, position: number): boolean {
    return this.fed[input] === position;
  }

  /** The slot to read input i's bytes at `position` into, when the worker wants them and a slot is free; else null. */
  slot(input: number, position: number): Buffer | null {
    if (!this.wants(input, position)) return null;
    const published = this.control[word(input, PUBLISHED)];
    if (published - Atomics.load(this.control, word(input, CONSUMED)) >= SLOTS) return null;
    const at = (published % SLOTS) * this.slotBytes;
    return this.rings[input]!.subarray(at, at + this.slotBytes);
  }

  /** Like slot(), waiting (without blocking the event loop) for the worker to free one; null if it is not wanted. */
  async freeSlot(input: number, position: number): Promise<Buffer | null> {
    for (;;) {
      if (!this.wants(input, position)) return null;
      const slot = this.slot(input, position);
      if (slot !== null) return slot;
      const consumed = Atomics.load(this.control, word(input, CONSUMED));
      // The timeout only matters when the worker failed: feeding has then ended and wants() says so.
      const wait = waitAsync(this.control, word(input, CONSUMED), consumed, 100);
      if (wait.async) await wait.value;
    }
  }

  /** Bytes [0, length) of the slot slot() gave last for input i were read: the worker hashes them next. */
  publish(input: number, length: number): void {
    const published = this.control[word(input, PUBLISHED)];
    this.lengths[input * SLOTS + (published % SLOTS)] = length;
    this.fed[input] += length;
    Atomics.store(this.control, word(input, PUBLISHED), published + 1);
    this.ring();
  }

  /** No more bytes of input i will be fed: the worker reads what it was not given from the file. */
  end(input: number): void {
    if (this.fed[input] < 0) return;
    this.fed[input] = -1;
    Atomics.store(this.control, word(input, ENDED), 1);
    this.ring();
  }

  /** Both inputs' digests (ends feeding first). */
  all(): Promise<string[]> {
    this.end(0);
    this.end(1);
    return Promise.all(this.digests);
  }

  /** Stops the worker, whatever it is doing (the merge ended, however). */
  close(): void {
    if (this.worker === null) return;
    Atomics.store(this.control, STOP, 1);
    this.ring();
    void this.worker.terminate();
  }

  /** Digests not settled yet fail with the worker's error, and no pass feeds or waits any more. */
  private failed(error: Error): void {
    for (const settle of this.settle) settle?.(error);
    this.fed.fill(-1);
  }

  private ring(): void {
    Atomics.add(this.control, DOORBELL, 1);
    Atomics.notify(this.control, DOORBELL);
  }
}
