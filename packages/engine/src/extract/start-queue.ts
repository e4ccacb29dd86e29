// A worker's merge keys, from its oldest unwritten row on: numbers that never decrease, added at one end and taken
// at the other. They are kept as 4-byte differences in 256 KiB chunks, a chunk reused once read past: on the 10 GB
// benchmark capture a worker's window spans nearly all of its 2.95 M sessions (a few last the whole capture), which
// took 32 MB as 8-byte numbers in one array doubled with a copy (48 MB while it doubled).

const CHUNK_SHIFT = 16;
const CHUNK_SIZE = 1 << CHUNK_SHIFT;
const CHUNK_MASK = CHUNK_SIZE - 1;
/** A difference this large or larger is kept in `large` instead, in order; its slot holds this mark. */
const LARGE = 0xffffffff;
/** Read chunks kept for reuse; beyond these they are the collector's. */
const SPARE_CHUNKS = 4;

export class StartQueue {
  /** The chunks from the one holding the first unread number on. */
  private readonly chunks: Uint32Array[] = [];
  private readonly spare: Uint32Array[] = [];
  private readonly large: number[] = [];
  private largeRead = 0;
  /** Numbers added and taken since the start. */
  private added = 0;
  private taken = 0;
  private last = 0;
  /** The first unread number (meaningful while length > 0). */
  first = 0;

  get length(): number {
    return this.added - this.taken;
  }

  /** Adds `value`, which must be no smaller than the last one added. */
  push(value: number): void {
    const difference = value - this.last;
    if (!(difference >= 0)) throw new RangeError(`start ${value} is before the previous one (${this.last})`);
    const at = this.added & CHUNK_MASK;
    if (at === 0) this.chunks.push(this.spare.pop() ?? new Uint32Array(CHUNK_SIZE));
    const chunk = this.chunks[this.chunks.length - 1];
    if (difference < LARGE) {
      chunk[at] = difference;
    } else {
      chunk[at] = LARGE;
      this.large.push(difference);
    }
    if (this.added === this.taken) this.first = value;
    this.last = value;
    this.added++;
  }

  /** Drops the first number (the queue must not be empty); `first` becomes the next one. */
  shift(): void {
    if (this.added === this.taken) throw new RangeError("no start left to take");
    this.taken++;
    const at = this.taken & CHUNK_MASK;
    if (at === 0) {
      const read = this.chunks.shift() as Uint32Array;
      if (this.spare.length < SPARE_CHUNKS) this.spare.push(read);
    }
    if (this.taken === this.added) {
      this.large.length = 0;
      this.largeRead = 0;
      return;
    }
    const difference = this.chunks[0][at];
    this.first += difference === LARGE ? this.large[this.largeRead++] : difference;
  }
}
