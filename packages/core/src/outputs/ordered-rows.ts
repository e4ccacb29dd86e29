// Puts rows that finish out of order back into sequence order (session start order) in bounded, reused memory.
import { type RowSpill, SpilledRun, stage } from "./row-spill.js";

const CHUNK_SIZE = 1 << 20;
/**
 * Free arena chunks kept for reuse without a spill; more are left to the garbage collector so memory shrinks after a
 * peak. With a spill, every chunk a spill frees is kept (see `spareLimit`).
 */
const SPARE_CHUNKS = 4;
/** Row lengths below this get a cached view of the caller's buffer (see `prefix`). */
const VIEW_LENGTHS = 4096;

/** Where the ordered bytes go; `bytes` is only valid during the call. */
export type RowSink = (bytes: Uint8Array, start: number, end: number) => void;

export interface OrderedRowsOptions {
  /** Where waiting rows go once they hold more than `memoryBytes` (without one, every waiting row stays in memory). */
  spill?: RowSpill;
  /** Bytes of waiting rows kept in memory before they are spilled (default: no limit). */
  memoryBytes?: number;
}

/** Int32 words per row waiting in memory: its chunk, offset and length. */
const ENTRY = 3;

/**
 * Rows are numbered 0, 1, 2, … (a session's `seq`). `put(seq, …)` may come in any order; the sink receives the rows
 * in number order as soon as every earlier row has been put. Rows waiting for an earlier one are copied into 1 MiB
 * arena chunks (no allocation per row); memory is the waiting rows plus at most one partly free chunk per
 * interleaving, 12 bytes per row waiting in memory (its chunk, offset and length side by side), and an index of 4
 * bytes per number between the oldest unfinished row and the newest put, which says where each row waits.
 *
 * With a spill, once the rows waiting in memory exceed `memoryBytes` they are all appended to it in number order (a
 * run), followed by their lengths, and the arena is emptied; rows come due from the runs through one read buffer
 * each. A few sessions that last the whole capture hold every later row back, so without a spill the waiting rows
 * grow with the capture; with one, what grows is the index, hence 4 bytes a row rather than every row's offset and
 * length beside it.
 */
export class OrderedRows {
  private next = 0;
  private mask = 1023;
  /** Per row number (masked): 0 not put yet; e + 1 waiting in memory as entry e of `entries`; −(run + 1) spilled. */
  private index = new Int32Array(1024);
  /** Rows waiting in memory, ENTRY words each (see ENTRY); entries of rows passed on are taken again. */
  private entries = new Int32Array(ENTRY * 1024);
  private entriesUsed = 0;
  private readonly freeEntries: number[] = [];
  private highest = -1;
  private readonly chunks: (Uint8Array | null)[] = [];
  private readonly liveRows: number[] = [];
  private readonly spare: Uint8Array[] = [];
  /**
   * Free chunks kept. With a spill, the chunks a spill empties are all kept for the rows that follow: memory then
   * stays at the limit it reached anyway, and the next rows are not written into new memory, whose first touch costs
   * more than the copy (bench/extract: the one-core pass is faster keeping the chunks).
   */
  private readonly spareLimit: number;
  private current = -1;
  private used = CHUNK_SIZE;
  private waitingBytes = 0;
  private waitingRows = 0;
  /** bytes[0, length) views of `viewsOf` (the caller's reused row buffer), by length. */
  private views: (Uint8Array | undefined)[] = [];
  private viewsOf: Uint8Array | null = null;
  private readonly spill: RowSpill | null;
  private readonly memoryBytes: number;
  /** Spilled runs by number; null once every row of the run has been passed on. */
  private readonly runs: (SpilledRun | null)[] = [];
  private spillBytes = 0;
  /** Bytes appended to the spill: the rows and each run's lengths. */
  private spillPosition = 0;
  /** The lowest row number put in memory since the last spill: a spill looks for rows in memory from there on. */
  private lowestInMemory = Number.POSITIVE_INFINITY;

  constructor(
    private readonly sink: RowSink,
    options: OrderedRowsOptions = {},
  ) {
    this.spill = options.spill ?? null;
    this.memoryBytes = options.memoryBytes ?? Number.POSITIVE_INFINITY;
    this.spareLimit =
      this.spill !== null && Number.isFinite(this.memoryBytes)
        ? Math.max(SPARE_CHUNKS, Math.ceil(this.memoryBytes / CHUNK_SIZE) + 1)
        : SPARE_CHUNKS;
  }

  /** Number of rows put but not yet passed on (waiting for an earlier one), spilled ones included. */
  get waiting(): number {
    return this.waitingRows;
  }

  /** Bytes held in memory for waiting rows. */
  get bufferedBytes(): number {
    return this.waitingBytes;
  }

  /** Bytes of free arena chunks kept for the rows to come. */
  get spareBytes(): number {
    return this.spare.length * CHUNK_SIZE;
  }

  /** Row bytes appended to the spill so far (each run's row lengths come on top, 4 bytes a row). */
  get spilledBytes(): number {
    return this.spillBytes;
  }

  /** The next row number the sink expects. */
  get expected(): number {
    return this.next;
  }

  put(seq: number, bytes: Uint8Array, length: number): void {
    if (seq === this.next) {
      this.sink(bytes, 0, length);
      this.next++;
      this.drain();
      return;
    }
    if (seq < this.next) throw new RangeError(`row ${seq} was already written`);
    while (seq - this.next > this.mask) this.grow();
    if (seq > this.highest) this.highest = seq;
    if (this.used + length > CHUNK_SIZE) this.newChunk(length);
    const chunk = this.chunks[this.current]!;
    chunk.set(this.prefix(bytes, length), this.used);
    const entry = this.freeEntries.length > 0 ? (this.freeEntries.pop() as number) : this.newEntry();
    const at = ENTRY * entry;
    this.entries[at] = this.current;
    this.entries[at + 1] = this.used;
    this.entries[at + 2] = length;
    this.index[seq & this.mask] = entry + 1;
    this.used += length;
    this.liveRows[this.current]++;
    this.waitingBytes += length;
    this.waitingRows++;
    if (seq < this.lowestInMemory) this.lowestInMemory = seq;
    if (this.waitingBytes > this.memoryBytes && this.spill !== null) this.spillWaiting(this.spill);
  }

  /**
   * bytes[0, length) as a view. Callers put every row from the same reused buffer, and rows take a few hundred
   * lengths, so the views are kept by length: a new view per waiting row (an allocation, and young-generation
   * garbage) was a large part of the cost of filing it.
   */
  private prefix(bytes: Uint8Array, length: number): Uint8Array {
    if (bytes !== this.viewsOf) {
      this.views = new Array(VIEW_LENGTHS);
      this.viewsOf = bytes;
    }
    let view = this.views[length];
    if (view === undefined) {
      view = bytes.subarray(0, length);
      if (length < VIEW_LENGTHS) this.views[length] = view;
    }
    return view;
  }

  /**
   * Passes on the rows that are now in order. Rows that follow each other in a chunk or a run's buffer as well
   * (sessions that ended in the order they started, as most short ones do) go to the sink in one call.
   */
  private drain(): void {
    let piece: Uint8Array | null = null;
    let pieceStart = 0;
    let pieceEnd = 0;
    for (;;) {
      const slot = this.next & this.mask;
      const where = this.index[slot];
      if (where === 0) break;
      let length: number;
      let bytes: Uint8Array;
      let offset: number;
      let chunk = -1;
      if (where > 0) {
        const at = ENTRY * (where - 1);
        chunk = this.entries[at];
        bytes = this.chunks[chunk]!;
        offset = this.entries[at + 1];
        length = this.entries[at + 2];
        this.freeEntries.push(where - 1);
      } else {
        const run = this.runs[-where - 1]!;
        length = run.nextLength(this.spill!);
        if (!run.holds(length)) {
          // Filling overwrites the run's buffer, which the piece may be part of.
          if (piece !== null) this.sink(piece, pieceStart, pieceEnd);
          piece = null;
          run.fill(this.spill!, length);
        }
        bytes = run.bytes;
        offset = run.take(length);
        if (run.done) this.runs[-where - 1] = null;
      }
      if (bytes === piece && offset === pieceEnd) {
        pieceEnd += length;
      } else {
        if (piece !== null) this.sink(piece, pieceStart, pieceEnd);
        piece = bytes;
        pieceStart = offset;
        pieceEnd = offset + length;
      }
      this.index[slot] = 0;
      this.waitingRows--;
      this.next++;
      if (where < 0) continue;
      this.waitingBytes -= length;
      // A released chunk is reused only by a later put, so the piece still holding it is passed on intact.
      if (--this.liveRows[chunk] === 0 && chunk !== this.current) this.release(chunk);
    }
    if (piece !== null) this.sink(piece, pieceStart, pieceEnd);
  }

  /**
   * Appends every row waiting in memory to the spill, in number order (rows that are neighbours in a chunk too in
   * one copy), then their lengths, and empties the arena; their index words then name the run.
   */
  private spillWaiting(spill: RowSpill): void {
    const run = -(this.runs.length + 1);
    const start = this.spillPosition;
    const staging = this.spare.pop() ?? new Uint8Array(CHUNK_SIZE);
    const index = this.index;
    const entries = this.entries;
    const mask = this.mask;
    const lengths = new Int32Array(this.entriesUsed - this.freeEntries.length);
    let count = 0;
    let used = 0;
    // The piece of neighbouring rows being gathered, in locals (not variables a closure shares, which lived in a
    // context object: a load or store each per row, and a write barrier per chunk change).
    let from: Uint8Array | null = null;
    let fromStart = 0;
    let fromEnd = 0;
    for (let seq = Math.max(this.next + 1, this.lowestInMemory); seq <= this.highest; seq++) {
      const slot = seq & mask;
      const where = index[slot];
      if (where <= 0) continue;
      const at = ENTRY * (where - 1);
      const chunk = this.chunks[entries[at]]!;
      const offset = entries[at + 1];
      const length = entries[at + 2];
      lengths[count++] = length;
      if (chunk === from && offset === fromEnd) {
        fromEnd += length;
      } else {
        if (from !== null) used = stage(spill, staging, used, from, fromStart, fromEnd);
        from = chunk;
        fromStart = offset;
        fromEnd = offset + length;
      }
      index[slot] = run;
    }
    if (from !== null) used = stage(spill, staging, used, from, fromStart, fromEnd);
    if (used > 0) spill.append(staging, 0, used);
    spill.append(new Uint8Array(lengths.buffer), 0, 4 * count);
    this.spillBytes += this.waitingBytes;
    this.spillPosition += this.waitingBytes + 4 * count;
    this.runs.push(new SpilledRun(start, start + this.waitingBytes, count));
    this.waitingBytes = 0;
    this.entriesUsed = 0;
    this.freeEntries.length = 0;
    this.lowestInMemory = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.chunks.length; i++) {
      if (this.chunks[i] === null) continue;
      this.liveRows[i] = 0;
      this.release(i);
    }
    if (this.spare.length < this.spareLimit) this.spare.push(staging);
  }

  private newChunk(length: number): void {
    if (this.current >= 0 && this.liveRows[this.current] === 0) this.release(this.current);
    // A row longer than a chunk gets a chunk of its own size (spares are all CHUNK_SIZE).
    const spare = length <= CHUNK_SIZE ? this.spare.pop() : undefined;
    const chunk = spare ?? new Uint8Array(Math.max(CHUNK_SIZE, length));
    let index = this.chunks.indexOf(null);
    if (index < 0) {
      index = this.chunks.length;
      this.chunks.push(chunk);
      this.liveRows.push(0);
    } else {
      this.chunks[index] = chunk;
      this.liveRows[index] = 0;
    }
    this.current = index;
    this.used = 0;
  }

  private release(index: number): void {
    const chunk = this.chunks[index]!;
    this.chunks[index] = null;
    if (this.spare.length < this.spareLimit && chunk.length === CHUNK_SIZE) this.spare.push(chunk);
    if (index === this.current) {
      this.current = -1;
      this.used = CHUNK_SIZE;
    }
  }

  private grow(): void {
    const size = (this.mask + 1) * 2;
    const mask = size - 1;
    const index = new Int32Array(size);
    for (let seq = this.next; seq <= this.highest; seq++) index[seq & mask] = this.index[seq & this.mask];
    this.mask = mask;
    this.index = index;
  }

  /** An entry never used yet, at the end of `entries` (which doubles when full). */
  private newEntry(): number {
    if (ENTRY * (this.entriesUsed + 1) > this.entries.length) {
      const bigger = new Int32Array(2 * this.entries.length);
      bigger.set(this.entries);
      this.entries = bigger;
    }
    return this.entriesUsed++;
  }
}
