// A session worker's rows on their way to the reading thread of `extract --threads N`: batches of whole rows with
// their merge keys, in buffers that go back and forth, with a bound on the batches the reading thread has not given
// back yet.
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import type { RowBatch } from "./shard-protocol.js";
import type { RingReader } from "./shard-ring.js";

/** Rows per message to the reading thread, at most (as bytes, and as a count). */
const ROW_BYTES = 1 << 18;
const ROW_COUNT = 4096;
/**
 * Batches sent and not yet given back beyond which the worker waits for one (5 MB of rows): the reading thread
 * writes every worker's rows, and it cannot always keep up (at the end of the capture each worker ends all its live
 * sessions at once). A worker made new buffers whenever none had come back, and kept them: 276-279 sets each (88 MB)
 * on the 10 GB benchmark capture with `--threads 2`. The merge holds fewer than half of them (HELD_BATCHES).
 */
export const ROW_BATCHES_IN_FLIGHT = 16;
/** Batches of one worker the merge holds in memory at most; later ones go to its spill (and come back at once). */
export const HELD_BATCHES = ROW_BATCHES_IN_FLIGHT / 2;

/** Rows finished in the worker's start order, collected for the next message to the reading thread. */
export class RowOutbox {
  bytes: Uint8Array<ArrayBuffer> = new Uint8Array(ROW_BYTES);
  ends: Int32Array<ArrayBuffer> = new Int32Array(ROW_COUNT);
  keys: Float64Array<ArrayBuffer> = new Float64Array(ROW_COUNT);
  count = 0;
  used = 0;
  /** Batches sent so far, and buffer sets allocated (the first included). */
  sent = 0;
  allocated = 1;
  /** Sets given back and not in use yet. */
  private readonly spares: RowBatch[] = [];

  /** `post` sends a batch to the reading thread; `ring` tells how many came back, and is where the worker waits. */
  constructor(
    private readonly post: (batch: RowBatch, transfer: ArrayBuffer[]) => void,
    private readonly returns: MessagePort,
    private readonly ring: RingReader,
    private readonly inFlight = ROW_BATCHES_IN_FLIGHT,
  ) {}

  /**
   * Adds the row bytes [start, end) of a session that started at addition `key`. A full outbox is sent first, with
   * `key` as its watermark (this row and every later one have keys of at least `key`): a worker's message never
   * grows past one buffer, also when a long session's end lets a large run of waiting rows go at once.
   */
  add(rows: Uint8Array, start: number, end: number, key: number): void {
    const length = end - start;
    if (this.used + length > this.bytes.length || this.count === this.ends.length) {
      if (this.count > 0) this.send(key);
      if (length > this.bytes.length) this.bytes = new Uint8Array(length);
    }
    this.bytes.set(rows.subarray(start, end), this.used);
    this.used += length;
    this.ends[this.count] = this.used;
    this.keys[this.count++] = key;
  }

  /**
   * Sends the rows with the watermark, and takes a set of buffers the reading thread has given back for the next
   * ones; a new set only while fewer than `inFlight` batches are out, else it waits for one.
   */
  send(watermark: number): void {
    const batch: RowBatch = { bytes: this.bytes, ends: this.ends, keys: this.keys, count: this.count, watermark };
    this.post(batch, [this.bytes.buffer, this.ends.buffer, this.keys.buffer]);
    this.sent++;
    this.takeReturns();
    if (this.spares.length === 0) {
      this.ring.waitForReturns(this.sent, this.inFlight);
      this.takeReturns();
    }
    const back = this.spares.pop();
    if (back === undefined) this.allocated++;
    this.bytes = back?.bytes ?? new Uint8Array(ROW_BYTES);
    this.ends = back?.ends ?? new Int32Array(ROW_COUNT);
    this.keys = back?.keys ?? new Float64Array(ROW_COUNT);
    this.count = 0;
    this.used = 0;
  }

  /** Moves the sets given back so far into `spares` (more than `inFlight` are never made; a test may send more). */
  private takeReturns(): void {
    for (;;) {
      const back = receiveMessageOnPort(this.returns)?.message as RowBatch | undefined;
      if (back === undefined) return;
      if (this.spares.length < this.inFlight) this.spares.push(back);
    }
  }
}
