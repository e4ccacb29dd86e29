// Puts rows that finish out of order back into sequence order (session start order) in bounded, reused memory.

const CHUNK_SIZE = 1 << 20;
/** Free arena chunks kept for reuse; more are left to the garbage collector so memory shrinks after a peak. */
const SPARE_CHUNKS = 4;
/** Row lengths below this get a cached view of the caller's buffer (see `prefix`). */
const VIEW_LENGTHS = 4096;

/** Where the ordered bytes go; `bytes` is only valid during the call. */
export type RowSink = (bytes: Uint8Array, start: number, end: number) => void;

/**
 * Rows are numbered 0, 1, 2, … (a session's `seq`). `put(seq, …)` may come in any order; the sink receives the rows
 * in number order as soon as every earlier row has been put. Rows waiting for an earlier one are copied into 1 MiB
 * arena chunks (no allocation per row); memory is the waiting rows plus at most one partly free chunk per
 * interleaving, and the index costs 16 bytes per number between the oldest unfinished row and the newest put: a
 * row's chunk, offset and length side by side, so that filing a row that ends out of order costs one cache miss.
 */
export class OrderedRows {
  private next = 0;
  private mask = 1023;
  /** Per row number (masked): chunk index + 1 (0: not put yet), offset in the chunk, length, unused. */
  private index = new Int32Array(4 * 1024);
  private highest = -1;
  private readonly chunks: (Uint8Array | null)[] = [];
  private readonly liveRows: number[] = [];
  private readonly spare: Uint8Array[] = [];
  private current = -1;
  private used = CHUNK_SIZE;
  private waitingBytes = 0;
  private waitingRows = 0;
  /** bytes[0, length) views of `viewsOf` (the caller's reused row buffer), by length. */
  private views: (Uint8Array | undefined)[] = [];
  private viewsOf: Uint8Array | null = null;

  constructor(private readonly sink: RowSink) {}

  /** Number of rows put but not yet passed on (waiting for an earlier one). */
  get waiting(): number {
    return this.waitingRows;
  }

  /** Bytes held for waiting rows. */
  get bufferedBytes(): number {
    return this.waitingBytes;
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
    const at = 4 * (seq & this.mask);
    this.index[at] = this.current + 1;
    this.index[at + 1] = this.used;
    this.index[at + 2] = length;
    this.used += length;
    this.liveRows[this.current]++;
    this.waitingBytes += length;
    this.waitingRows++;
  }

  /**
   * bytes[0, length) as a view. Callers put every row from the same reused buffer, and rows take a few hundred
   * lengths, so the views are kept by length: a new view per waiting row (an allocation, and young-generation
   * garbage) cost about 50 ns of the 170-270 ns of filing it.
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
   * Passes on the rows that are now in order. Rows that follow each other in a chunk as well (sessions that ended
   * in the order they started, as most short ones do) go to the sink in one call.
   */
  private drain(): void {
    let run: Uint8Array | null = null;
    let runStart = 0;
    let runEnd = 0;
    for (;;) {
      const at = 4 * (this.next & this.mask);
      const chunkIndex = this.index[at] - 1;
      if (chunkIndex < 0) break;
      const offset = this.index[at + 1];
      const length = this.index[at + 2];
      const chunk = this.chunks[chunkIndex]!;
      if (chunk === run && offset === runEnd) {
        runEnd += length;
      } else {
        if (run !== null) this.sink(run, runStart, runEnd);
        run = chunk;
        runStart = offset;
        runEnd = offset + length;
      }
      this.index[at] = 0;
      this.waitingBytes -= length;
      this.waitingRows--;
      this.next++;
      // A released chunk is reused only by a later put, so the run still holding it is passed on intact.
      if (--this.liveRows[chunkIndex] === 0 && chunkIndex !== this.current) this.release(chunkIndex);
    }
    if (run !== null) this.sink(run, runStart, runEnd);
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
    if (this.spare.length < SPARE_CHUNKS && chunk.length === CHUNK_SIZE) this.spare.push(chunk);
    if (index === this.current) {
      this.current = -1;
      this.used = CHUNK_SIZE;
    }
  }

  private grow(): void {
    const size = (this.mask + 1) * 2;
    const mask = size - 1;
    const index = new Int32Array(4 * size);
    for (let seq = this.next; seq <= this.highest; seq++) {
      const from = 4 * (seq & this.mask);
      const to = 4 * (seq & mask);
      index[to] = this.index[from];
      index[to + 1] = this.index[from + 1];
      index[to + 2] = this.index[from + 2];
    }
    this.mask = mask;
    this.index = index;
  }
}
