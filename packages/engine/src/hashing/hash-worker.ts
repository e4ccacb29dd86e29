// The hashing worker: the SHA-256 of each input it is given, from the ring slots the reading thread publishes, then
// from the file itself for the bytes not fed (all of a gzip input, what follows damage, the rest once a reader ran
// ahead). Synchronous reads into one reused buffer: a stream would allocate (and fault in) a fresh buffer per chunk,
// which costs more CPU than the hashing.
import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import {
  CONSUMED,
  DOORBELL,
  ENDED,
  type HashWorkerData,
  type HashWorkerMessage,
  PUBLISHED,
  quietMs,
  SLOTS,
  STOP,
  word,
} from "./feed-layout.js";

/** Idle this long before the thread ends (quietMs). */
const QUIET_MS = quietMs(process.execArgv);

interface HashedInput {
  file: string | null;
  ring: Uint8Array | null;
  hash: Hash;
  /** Bytes hashed so far: where the file is read from once feeding ended. */
  hashed: number;
  consumed: number;
  fd: number;
}

const data = workerData as HashWorkerData;
const control = new Int32Array(data.control);
const lengths = new Int32Array(data.lengths);
const inputs: (HashedInput | null)[] = data.inputs.map((input, i) => {
  if (input === null) return null;
  const ring = data.rings[i];
  return {
    file: input.file,
    ring: ring === null ? null : new Uint8Array(ring),
    hash: createHash("sha256"),
    hashed: 0,
    consumed: 0,
    fd: -1,
  };
});
const chunk = Buffer.allocUnsafe(1 << 20);

function post(message: HashWorkerMessage): void {
  parentPort?.postMessage(message);
}

/** Hashes the slots published since the last look; true when there were any. */
function consume(input: HashedInput, i: number): boolean {
  const published = Atomics.load(control, word(i, PUBLISHED));
  if (input.consumed === published || input.ring === null) return false;
  while (input.consumed < published) {
    const slot = input.consumed % SLOTS;
    const length = lengths[i * SLOTS + slot];
    input.hash.update(input.ring.subarray(slot * data.slotBytes, slot * data.slotBytes + length));
    input.hashed += length;
    Atomics.store(control, word(i, CONSUMED), ++input.consumed);
    Atomics.notify(control, word(i, CONSUMED));
  }
  return true;
}

/**
 * One chunk of what the input was not fed, read from its file; true at its end. A chunk at a time, so that the other
 * inputs' rings are served in between: a reader may be waiting for one of its slots.
 */
function restChunk(input: HashedInput): boolean {
  if (input.file === null) return true;
  if (input.fd < 0) input.fd = fs.openSync(input.file, "r");
  const n = fs.readSync(input.fd, chunk, 0, chunk.length, input.hashed);
  if (n > 0) {
    input.hash.update(chunk.subarray(0, n));
    input.hashed += n;
    return false;
  }
  return true;
}

let left = inputs.filter((input) => input !== null).length;
while (left > 0 && Atomics.load(control, STOP) === 0) {
  const bell = Atomics.load(control, DOORBELL);
  let progress = false;
  inputs.forEach((input, i) => {
    if (input === null) return;
    if (consume(input, i)) progress = true;
    const ended = Atomics.load(control, word(i, ENDED)) === 1;
    if (!ended || input.consumed < Atomics.load(control, word(i, PUBLISHED))) return;
    progress = true;
    try {
      if (!restChunk(input)) return;
      post({ input: i, digest: input.hash.digest("hex") });
    } catch (error) {
      post({ input: i, error: (error as Error).message });
    }
    if (input.fd >= 0) fs.closeSync(input.fd);
    inputs[i] = null;
    left--;
  });
  if (!progress) Atomics.wait(control, DOORBELL, bell);
}
for (const input of inputs) if (input !== null && input.fd >= 0) fs.closeSync(input.fd);
if (QUIET_MS > 0) setTimeout(() => {}, QUIET_MS);
