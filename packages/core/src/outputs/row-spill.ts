// Where OrderedRows puts its waiting rows once they take more memory than allowed: runs of bytes, each written once in
// order and read back once in the same order. The engine backs each run with a temporary file; the core knows no file
// system.

/**
 * Runs are numbered 0, 1, 2, … in the order they are started. A run's bytes are read back in the order they were
 * appended, each once, so a backing store may free them as they are read (the engine's file spill shortens each
 * run's file behind its reads: the pages it frees are what the output's own writes then take).
 */
export interface RowSpill {
  /** Starts run `run` (the next number), which will hold exactly `bytes` bytes. */
  start(run: number, bytes: number): void;
  /** Appends bytes[start, end) to run `run`, after what was appended to it before. */
  append(run: number, bytes: Uint8Array, start: number, end: number): void;
  /** Fills into[at, at + length) with run `run`'s next `length` bytes; throws past what was appended. */
  read(run: number, into: Uint8Array, at: number, length: number): void;
}

/** A RowSpill in memory, for tests and for callers that want the ordering without a file. */
export class MemoryRowSpill implements RowSpill {
  private readonly runs: { bytes: Uint8Array; written: number; read: number }[] = [];

  /** Bytes appended and not read back yet, over all runs. */
  get size(): number {
    return this.runs.reduce((sum, run) => sum + run.written - run.read, 0);
  }

  start(run: number, bytes: number): void {
    if (run !== this.runs.length) throw new RangeError(`run ${run} started after ${this.runs.length} runs`);
    this.runs.push({ bytes: new Uint8Array(bytes), written: 0, read: 0 });
  }

  append(run: number, bytes: Uint8Array, start: number, end: number): void {
    const held = this.runs[run];
    if (held.written + end - start > held.bytes.length)
      throw new RangeError(`run ${run} holds ${held.bytes.length} bytes, not ${held.written + end - start}`);
    held.bytes.set(bytes.subarray(start, end), held.written);
    held.written += end - start;
  }

  read(run: number, into: Uint8Array, at: number, length: number): void {
    const held = this.runs[run];
    if (length < 0 || held.read + length > held.written)
      throw new RangeError(`run ${run}: ${length} bytes from ${held.read} were not appended (${held.written} were)`);
    into.set(held.bytes.subarray(held.read, held.read + length), at);
    held.read += length;
  }
}

/** Bytes a spilled run reads at a time (more for a longer row). */
const READ_BYTES = 256 << 10;

/** Bytes of a row's length before its bytes in a spilled run. */
export const LENGTH_BYTES = 4;

/** Writes a spilled row's length (little-endian, at any offset) at bytes[at]. */
export function writeLength(bytes: Uint8Array, at: number, length: number): void {
  bytes[at] = length;
  bytes[at + 1] = length >>> 8;
  bytes[at + 2] = length >>> 16;
  bytes[at + 3] = length >>> 24;
}

function readLength(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
}

/**
 * One spill of OrderedRows read back: `count` rows in number order, each its length (LENGTH_BYTES) then its bytes,
 * `bytes` in all; read through one buffer as the rows come due.
 */
export class SpilledRun {
  private buffer: Uint8Array = new Uint8Array(0);
  /** The next unread byte in `buffer`, and the end of what it holds. */
  private at = 0;
  private held = 0;
  /** Bytes of the run not read from the spill yet, and rows not taken yet. */
  private unread: number;
  private rows: number;

  constructor(
    private readonly run: number,
    bytes: number,
    count: number,
  ) {
    this.unread = bytes;
    this.rows = count;
  }

  /** Whether the next `length` bytes are in the buffer (else the caller passes on what it holds, then fills). */
  holds(length: number): boolean {
    return this.at + length <= this.held;
  }

  /** Keeps the buffer's unread bytes and reads more after them, at least `length` bytes in all. */
  fill(spill: RowSpill, length: number): void {
    const kept = this.held - this.at;
    const size = Math.min(Math.max(READ_BYTES, length), kept + this.unread);
    if (size < length) throw new RangeError(`a spilled row of ${length} bytes runs past its run's end`);
    if (this.buffer.length < size) {
      const grown = new Uint8Array(Math.max(READ_BYTES, size));
      grown.set(this.buffer.subarray(this.at, this.held));
      this.buffer = grown;
    } else this.buffer.copyWithin(0, this.at, this.held);
    spill.read(this.run, this.buffer, kept, size - kept);
    this.unread -= size - kept;
    this.at = 0;
    this.held = size;
  }

  /** The next row's length (after `holds(4)` or `fill(spill, 4)`). */
  nextLength(): number {
    const at = this.at;
    this.at += 4;
    return readLength(this.buffer, at);
  }

  /** The buffer holding the next row (after `holds` or `fill`). */
  get bytes(): Uint8Array {
    return this.buffer;
  }

  /** Offset of the next row in `bytes`; moves past it (`length` bytes). */
  take(length: number): number {
    const offset = this.at;
    this.at += length;
    this.rows--;
    return offset;
  }

  /** Whether every row of the run has been taken. */
  get done(): boolean {
    return this.rows === 0;
  }
}

/**
 * Appends bytes[start, end) to run `run` of `spill` through `staging`, of which `used` bytes are filled (written out
 * first when the piece does not fit; a piece longer than `staging` goes out directly); returns the bytes of `staging`
 * filled.
 */
export function stage(
  spill: RowSpill,
  run: number,
  staging: Uint8Array,
  used: number,
  bytes: Uint8Array,
  start: number,
  end: number,
): number {
  if (used + end - start > staging.length) {
    spill.append(run, staging, 0, used);
    used = 0;
  }
  if (end - start > staging.length) {
    spill.append(run, bytes, start, end);
    return used;
  }
  staging.set(bytes.subarray(start, end), used);
  return used + end - start;
}
