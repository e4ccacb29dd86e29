// Idle expiry in O(1) per packet: sessions sit in time buckets (a timing wheel), checked when their bucket's time
// is over, so a packet touches only its own session and a session ends at most one bucket width late.
import {
  CHUNK_MASK,
  CHUNK_SHIFT,
  N_BASE_SEC,
  N_LAST_TIME,
  RECORD_NUMBERS,
  RECORD_WORDS,
  type SessionStore,
  W_GENERATION,
  W_HASH,
} from "./session.js";
import type { SessionIndex } from "./session-index.js";

const NS = 1e9;
/** Buckets per idle timeout: a session's end is noticed at most idleTimeout / 1024 after it is due. */
const BUCKETS_PER_TIMEOUT = 1024;
/**
 * Entries handled together. Their records have mostly left the cache (an idle timeout since the last packet); each
 * batch first reads one word of every line it will need, in loops of independent loads, so that the misses overlap
 * instead of coming one after another (JavaScript has no prefetch instruction; a load whose value is summed is one).
 */
const BATCH = 32;

/**
 * Each live session has one entry, in the bucket of the time it was last checked. Bucket times are nanoseconds since
 * `frameSec` in doubles, rounded beyond 2^53 ns (104 days) but never reordered: a bucket only says when to look at a
 * session. When a bucket's time is over, its sessions idle by the clock (decided exactly, from the record's own
 * times) end; the others move to the bucket of their last packet. An entry whose session ended otherwise (its
 * generation changed) is skipped. Entries are a record's store slot and generation in Int32Arrays that are reused:
 * no array per bucket turn for the garbage collector to copy and promote.
 */
export class ExpiryWheel {
  private readonly width: number;
  private readonly idleTimeoutNs: number;
  /** The epoch second bucket times count from (the flow table sets it at its first time). */
  frameSec = 0;
  private readonly slots: Int32Array<ArrayBuffer>[];
  private readonly generations: Int32Array<ArrayBuffer>[];
  private readonly lengths: Int32Array;
  /** The arrays of the bucket being checked are swapped for these, so that entries moved meanwhile go elsewhere. */
  private spareSlots = new Int32Array(64);
  private spareGenerations = new Int32Array(64);
  /** Absolute number of the oldest bucket not yet checked. */
  private cursor = -1;
  /**
   * The smallest `limit` for which expire() has work (Infinity when empty): callers test it inline, so the time
   * (a double) is not boxed for a call on the many packets where nothing is due.
   */
  due = Number.POSITIVE_INFINITY;
  private count = 0;
  /** The due records of the batch being handled. */
  private readonly ending = new Int32Array(BATCH);
  /** The sum of the batches' early reads: a field a caller could read, so the JIT keeps the reads. */
  touched = 0;

  /** `store` holds the records and `index` is the table's index. */
  constructor(
    idleTimeoutNs: number,
    private readonly store: SessionStore,
    private readonly index: SessionIndex,
  ) {
    this.idleTimeoutNs = idleTimeoutNs;
    this.width = Math.max(1, Math.ceil(idleTimeoutNs / BUCKETS_PER_TIMEOUT));
    const size = BUCKETS_PER_TIMEOUT + 2;
    this.slots = Array.from({ length: size }, () => new Int32Array(64));
    this.generations = Array.from({ length: size }, () => new Int32Array(64));
    this.lengths = new Int32Array(size);
  }

  /** Entries held, stale ones included. */
  get length(): number {
    return this.count;
  }

  /**
   * Files record `slot` of `generation` under `time` (ns since frameSec), at most one idle timeout before the latest
   * time seen.
   */
  push(slot: number, generation: number, time: number): void {
    const bucket = Math.floor(time / this.width);
    if (this.cursor < 0) {
      this.cursor = bucket;
      this.due = (bucket + 1) * this.width;
    }
    const at = bucket % this.lengths.length;
    const n = this.lengths[at]++;
    if (n === this.slots[at].length) {
      this.slots[at] = grown(this.slots[at]);
      this.generations[at] = grown(this.generations[at]);
    }
    this.slots[at][n] = slot;
    this.generations[at][n] = generation;
    this.count++;
  }

  /**
   * Calls `end` with the slot of every session idle at the clock `sec` + `nsec`: more than the idle timeout since its
   * last packet. Checks only buckets wholly before `limit`, the clock less the idle timeout in the buckets' frame.
   */
  expire(limit: number, sec: number, nsec: number, end: (slot: number) => void): void {
    if (this.count === 0) return;
    const width = this.width;
    const idleTimeoutNs = this.idleTimeoutNs;
    while ((this.cursor + 1) * width <= limit && this.count > 0) {
      const at = this.cursor % this.lengths.length;
      const slots = this.slots[at];
      const generations = this.generations[at];
      const length = this.take(at);
      for (let from = 0; from < length; from += BATCH) {
        const to = Math.min(length, from + BATCH);
        this.touchFirstLines(slots, from, to);
        // The record's first line tells whether the entry is current and due; the rest is loaded to end it only.
        const wordChunks = this.store.wordChunks;
        const numberChunks = this.store.numberChunks;
        let due = 0;
        for (let i = from; i < to; i++) {
          const slot = slots[i];
          const generation = generations[i];
          const record = slot & CHUNK_MASK;
          if (wordChunks[slot >>> CHUNK_SHIFT][RECORD_WORDS * record + W_GENERATION] !== generation) continue;
          // sinceLast(), written out: a call that is not inlined returns its double in a new heap number.
          const numbers = numberChunks[slot >>> CHUNK_SHIFT];
          const n = RECORD_NUMBERS * record;
          const base = numbers[n + N_BASE_SEC];
          const last = numbers[n + N_LAST_TIME];
          if ((sec - base) * NS + nsec - last > idleTimeoutNs) this.ending[due++] = slot;
          else this.push(slot, generation, (base - this.frameSec) * NS + last);
        }
        this.endDue(due, end);
      }
      this.spareSlots = slots;
      this.spareGenerations = generations;
      this.cursor++;
    }
    if (this.count === 0) this.cursor = -1;
    this.due = this.cursor < 0 ? Number.POSITIVE_INFINITY : (this.cursor + 1) * width;
  }

  /** Calls `end` with the slot of every live session, oldest bucket first, and empties the wheel. */
  drain(end: (slot: number) => void): void {
    for (let n = 0; this.count > 0 && n < this.lengths.length; n++) {
      const at = (this.cursor + n) % this.lengths.length;
      const slots = this.slots[at];
      const generations = this.generations[at];
      const length = this.take(at);
      for (let from = 0; from < length; from += BATCH) {
        const to = Math.min(length, from + BATCH);
        this.touchFirstLines(slots, from, to);
        const wordChunks = this.store.wordChunks;
        let due = 0;
        for (let i = from; i < to; i++) {
          const slot = slots[i];
          const words = wordChunks[slot >>> CHUNK_SHIFT];
          if (words[RECORD_WORDS * (slot & CHUNK_MASK) + W_GENERATION] === generations[i]) this.ending[due++] = slot;
        }
        this.endDue(due, end);
      }
      this.spareSlots = slots;
      this.spareGenerations = generations;
    }
    this.cursor = -1;
    this.due = Number.POSITIVE_INFINITY;
  }

  /** Loads the first line of the records of entries [from, to) together. */
  private touchFirstLines(slots: Int32Array, from: number, to: number): void {
    const wordChunks = this.store.wordChunks;
    let sum = 0;
    for (let i = from; i < to; i++) {
      const slot = slots[i];
      sum = (sum + wordChunks[slot >>> CHUNK_SHIFT][RECORD_WORDS * (slot & CHUNK_MASK) + W_GENERATION]) | 0;
    }
    this.touched = sum;
  }

  /**
   * Ends the batch's `count` due records, in entry order, after loading together every line ending reads: each
   * record's lines, then its index line (the index removes it).
   */
  private endDue(count: number, end: (slot: number) => void): void {
    if (count === 0) return;
    const due = this.ending;
    const wordChunks = this.store.wordChunks;
    let sum = 0;
    for (let i = 0; i < count; i++) sum = (sum + this.store.lines(due[i])) | 0;
    for (let i = 0; i < count; i++) {
      const slot = due[i];
      sum = (sum + this.index.peek(wordChunks[slot >>> CHUNK_SHIFT][RECORD_WORDS * (slot & CHUNK_MASK) + W_HASH])) | 0;
    }
    this.touched = sum;
    for (let i = 0; i < count; i++) end(due[i]);
  }

  /** Empties bucket `at` by giving it the spare arrays; returns how many entries its old arrays hold. */
  private take(at: number): number {
    const length = this.lengths[at];
    this.slots[at] = this.spareSlots;
    this.generations[at] = this.spareGenerations;
    this.lengths[at] = 0;
    this.count -= length;
    return length;
  }
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
