// Where OrderedRows puts its waiting rows once they take more memory than allowed: an append-only byte store read
// back by position. The engine backs it with a temporary file; the core knows no file system.

export interface RowSpill {
  /** Appends bytes[start, end) after everything appended before. */
  append(bytes: Uint8Array, start: number, end: number): void;
  /** Fills into[0, length) with the `length` bytes appended at `position`; throws if they were never appended. */
  read(position: number, into: Uint8Array, length: number): void;
}

/** A RowSpill in memory, for tests and for callers that want the ordering without a file. */
export class MemoryRowSpill implements RowSpill {
  private bytes = new Uint8Array(1 << 16);
  private length = 0;

  /** Bytes appended so far. */
  get size(): number {
    return this.length;
  }

  append(bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (this.length + length > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(2 * this.bytes.length, this.length + length));
      bigger.set(this.bytes.subarray(0, this.length));
      this.bytes = bigger;
    }
    this.bytes.set(bytes.subarray(start, end), this.length);
    this.length += length;
  }

  read(position: number, into: Uint8Array, length: number): void {
    if (position < 0 || length < 0 || position + length > this.length)
      throw new RangeError(`bytes ${position}–${position + length} were not appended (${this.length} were)`);
    into.set(this.bytes.subarray(position, position + length));
  }
}

/** Bytes a spilled run reads at a time (more for a longer row), and row lengths. */
const READ_BYTES = 256 << 10;
const READ_LENGTHS = 16 << 10;

/**
 * One spill of OrderedRows: `count` rows in number order, appended in one piece from `start` to `end`, then their
 * lengths (an int32 each, in this machine's byte order: the spill lives only as long as the run); read back in the
 * same order through one buffer for the rows and one for their lengths, as the rows come due.
 */
export class SpilledRun {
  private buffer: Uint8Array | null = null;
  /** Spill position of buffer[0]. */
  private bufferStart = 0;
  private bufferEnd = 0;
  /** Spill position of the next row to read. */
  private position: number;
  private lengths: Int32Array | null = null;
  /** Next length in `lengths`, lengths held there, and lengths read from the spill so far. */
  private lengthAt = 0;
  private lengthsHeld = 0;
  private lengthsRead = 0;

  constructor(
    start: number,
    private readonly end: number,
    private readonly count: number,
  ) {
    this.position = start;
  }

  /** The length of the next row (read before `holds`, `fill` and `take` for it). */
  nextLength(spill: RowSpill): number {
    if (this.lengthAt === this.lengthsHeld) {
      const count = Math.min(READ_LENGTHS, this.count - this.lengthsRead);
      if (count <= 0) throw new RangeError(`every one of the run's ${this.count} rows was read already`);
      this.lengths ??= new Int32Array(READ_LENGTHS);
      spill.read(this.end + 4 * this.lengthsRead, new Uint8Array(this.lengths.buffer, 0, 4 * count), 4 * count);
      this.lengthsRead += count;
      this.lengthsHeld = count;
      this.lengthAt = 0;
    }
    return this.lengths![this.lengthAt++];
  }

  /** Whether the next `length` bytes are in the buffer already (else the caller passes on what it holds, then fills). */
  holds(length: number): boolean {
    return this.position + length <= this.bufferEnd;
  }

  /** Reads the next bytes from the spill, at least `length` of them; the buffer's earlier bytes are overwritten. */
  fill(spill: RowSpill, length: number): void {
    const size = Math.min(Math.max(READ_BYTES, length), this.end - this.position);
    if (size < length) throw new RangeError(`a spilled row of ${length} bytes runs past its run's end`);
    if (this.buffer === null || this.buffer.length < size) this.buffer = new Uint8Array(Math.max(READ_BYTES, size));
    spill.read(this.position, this.buffer, size);
    this.bufferStart = this.position;
    this.bufferEnd = this.position + size;
  }

  /** The buffer holding the next row (after `holds` or `fill`). */
  get bytes(): Uint8Array {
    return this.buffer!;
  }

  /** Offset of the next row in `bytes`; moves past it (`length` bytes). */
  take(length: number): number {
    const offset = this.position - this.bufferStart;
    this.position += length;
    return offset;
  }

  /** Whether every row of the run has been read. */
  get done(): boolean {
    return this.position === this.end;
  }
}

/**
 * Appends bytes[start, end) to `spill` through `staging`, of which `used` bytes are filled (written out first when
 * the piece does not fit; a piece longer than `staging` goes out directly); returns the bytes of `staging` filled.
 */
export function stage(
  spill: RowSpill,
  staging: Uint8Array,
  used: number,
  bytes: Uint8Array,
  start: number,
  end: number,
): number {
  if (used + end - start > staging.length) {
    spill.append(staging, 0, used);
    used = 0;
  }
  if (end - start > staging.length) {
    spill.append(bytes, start, end);
    return used;
  }
  staging.set(bytes.subarray(start, end), used);
  return used + end - start;
}
