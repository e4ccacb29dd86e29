// Rows of typed cells (CellRowBuilder), in order, turned into columns: one batch of up to `capacity` rows at a time,
// what a columnar writer (Parquet's row groups) takes.
import { TracemillError } from "../errors.js";
import type { ColumnType } from "../features/feature-group.js";

/**
 * One column of a batch, `rows` values: "int" as int64; "time" as int64 nanoseconds since the epoch; "real" as
 * float64; "string" as UTF-8 bytes with `rows + 1` offsets; "list" as int64 values with `rows + 1` offsets.
 */
export type ColumnValues =
  | { readonly type: "int" | "time"; readonly values: BigInt64Array }
  | { readonly type: "real"; readonly values: Float64Array }
  | { readonly type: "string"; readonly offsets: Int32Array; readonly bytes: Uint8Array }
  | { readonly type: "list"; readonly offsets: Int32Array; readonly values: BigInt64Array };

const TWO_POW_16 = 2 ** 16;
const TWO_POW_31 = 2 ** 31;
const TWO_POW_32 = 2 ** 32;
const KINDS: readonly ColumnType[] = ["real", "int", "time", "string", "list"];
const REAL = 0;
const INT = 1;
const TIME = 2;
const STRING = 3;
/** Whole seconds of a time that Parquet's TIMESTAMP(NANOS), an int64 of nanoseconds, holds. */
const MAX_SECONDS = 9_223_372_035;

/** A column being filled: its words, and for text and lists the growing values behind the offsets. */
interface Filling {
  readonly type: ColumnType;
  /** int, time: two int32 words per row (an int64, low word first); real: unused. */
  words: Int32Array;
  int64: BigInt64Array;
  reals: Float64Array;
  offsets: Int32Array;
  /** string: the bytes; list: the values' int64 words. */
  bytes: Uint8Array;
  listWords: Int32Array;
  used: number;
}

/**
 * Reads rows of cells in row order into columns. `add` takes any run of whole rows (OrderedRows passes neighbouring
 * rows in one piece); once `capacity` rows are held, `full` gets the batch, which is valid during the call only (its
 * arrays are reused for the next rows).
 */
export class RowCells {
  private readonly columns: Filling[];
  private rowsHeld = 0;
  /** Each column's type as a small integer (REAL, INT, TIME, STRING, LIST), tested in that order per cell. */
  private readonly kinds: Uint8Array;
  private words: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private wordsOf: Uint8Array | null = null;
  /** An aligned copy of a piece that does not start on a word (rows read back from the spill may not). */
  private scratch: Uint8Array<ArrayBufferLike> = new Uint8Array(1 << 16);

  constructor(
    types: readonly ColumnType[],
    private readonly capacity: number,
    private readonly full: (batch: readonly ColumnValues[], rows: number) => void,
  ) {
    this.kinds = Uint8Array.from(types, (type) => KINDS.indexOf(type));
    this.columns = types.map((type) => {
      const int64 = new BigInt64Array(type === "int" || type === "time" ? capacity : 0);
      const bytes = new Uint8Array(type === "string" ? 32 * capacity : type === "list" ? 64 : 0);
      return {
        type,
        int64,
        words: new Int32Array(int64.buffer),
        reals: new Float64Array(type === "real" ? capacity : 0),
        offsets: new Int32Array(type === "string" || type === "list" ? capacity + 1 : 0),
        bytes,
        listWords: new Int32Array(bytes.buffer),
        used: 0,
      };
    });
  }

  /** Rows held, not passed on yet. */
  get rows(): number {
    return this.rowsHeld;
  }

  /** Reads the whole rows in bytes[start, end). */
  add(bytes: Uint8Array, start: number, end: number): void {
    // Cells are whole float64 words: read through a Float64Array over the piece, or over an aligned copy of it.
    let source = bytes;
    let from = start;
    if (((bytes.byteOffset + start) & 7) !== 0) {
      if (this.scratch.length < end - start)
        this.scratch = new Uint8Array(Math.max(end - start, 2 * this.scratch.length));
      this.scratch.set(bytes.subarray(start, end));
      source = this.scratch;
      from = 0;
    }
    if (source !== this.wordsOf) {
      this.words = new Float64Array(
        source.buffer,
        source.byteOffset & ~7,
        (source.byteLength + (source.byteOffset & 7)) >>> 3,
      );
      this.wordsOf = source;
    }
    const words = this.words;
    // Word w of `words` is source byte 8w - lead on.
    const lead = source.byteOffset & 7;
    const columns = this.columns;
    const kinds = this.kinds;
    const last = (lead + from + end - start) >>> 3;
    let at = (lead + from) >>> 3;
    while (at < last) {
      const row = this.rowsHeld;
      for (let c = 0; c < kinds.length; c++) {
        const kind = kinds[c];
        if (kind === REAL) {
          columns[c].reals[row] = words[at++];
        } else if (kind === INT) {
          const value = words[at++];
          const int32 = columns[c].words;
          if (value >= 0 && value < TWO_POW_31) {
            // Counts, sizes, ports: most values, without the division.
            int32[2 * row] = value;
            int32[2 * row + 1] = 0;
          } else {
            const high = Math.floor(value / TWO_POW_32);
            int32[2 * row] = (value - high * TWO_POW_32) | 0;
            int32[2 * row + 1] = high | 0;
          }
        } else if (kind === TIME) {
          nanoseconds(columns[c].words, 2 * row, words[at], words[at + 1]);
          at += 2;
        } else if (kind === STRING) {
          const column = columns[c];
          const count = words[at];
          const first = 8 * (at + 1) - lead;
          grow(column, count);
          column.bytes.set(source.subarray(first, first + count), column.used);
          column.used += count;
          column.offsets[row + 1] = column.used;
          at += 1 + ((count + 7) >>> 3);
        } else {
          const column = columns[c];
          const count = words[at++];
          grow(column, 8 * count);
          const int32 = column.listWords;
          for (let i = 0; i < count; i++) {
            const value = words[at++];
            const high = Math.floor(value / TWO_POW_32);
            int32[2 * column.used] = (value - high * TWO_POW_32) | 0;
            int32[2 * column.used + 1] = high | 0;
            column.used++;
          }
          column.offsets[row + 1] = column.used;
        }
      }
      if (at > last) throw new RangeError(`a row of cells runs ${8 * (at - last)} bytes past its piece`);
      if (++this.rowsHeld === this.capacity) this.flush();
    }
  }

  /**
   * Passes on the rows held (the last batch, shorter than `capacity`); none held, nothing, unless `empty` asks for a
   * batch of no rows (a file of no rows still needs its columns).
   */
  flush(empty = false): void {
    const rows = this.rowsHeld;
    if (rows === 0 && !empty) return;
    const batch = this.columns.map((column): ColumnValues => {
      switch (column.type) {
        case "real":
          return { type: "real", values: column.reals.subarray(0, rows) };
        case "int":
        case "time":
          return { type: column.type, values: column.int64.subarray(0, rows) };
        case "string":
          return {
            type: "string",
            offsets: column.offsets.subarray(0, rows + 1),
            bytes: column.bytes.subarray(0, column.used),
          };
        default:
          return {
            type: "list",
            offsets: column.offsets.subarray(0, rows + 1),
            values: new BigInt64Array(column.bytes.buffer, 0, column.used),
          };
      }
    });
    this.full(batch, rows);
    this.rowsHeld = 0;
    for (const column of this.columns) column.used = 0;
  }
}

/** Makes room for `extra` more bytes of a text column, or `extra` / 8 more values of a list column. */
function grow(column: Filling, extra: number): void {
  const needed = column.type === "list" ? 8 * column.used + extra : column.used + extra;
  if (needed <= column.bytes.length) return;
  // A whole number of 64-bit words: the same buffer is viewed as 32-bit list words.
  const bytes = new Uint8Array(Math.max(2 * column.bytes.length, (needed + 7) & ~7));
  bytes.set(column.bytes.subarray(0, column.type === "list" ? 8 * column.used : column.used));
  column.bytes = bytes;
  column.listWords = new Int32Array(bytes.buffer);
}

/**
 * An instant from whole seconds and nanoseconds as int64 nanoseconds, exactly, into words[at] (low) and words[at + 1]
 * (high): with sec = hi·2^16 + lo, the nanoseconds are hi·10^9·2^16 + (lo·10^9 + nsec), each part below 2^53 and so
 * exact in doubles (bigints, made per row, were a large part of turning the rows into columns).
 */
function nanoseconds(words: Int32Array, at: number, sec: number, nsec: number): void {
  if (sec > MAX_SECONDS || sec < -MAX_SECONDS - 1)
    throw new TracemillError(
      "OUTPUT_FAILED",
      `a session starts at ${sec} s since 1970, outside what Parquet's TIMESTAMP(NANOS) holds (years 1677 to 2262)`,
    );
  const hi = Math.floor(sec / TWO_POW_16);
  const a = hi * 1e9;
  const b = (sec - hi * TWO_POW_16) * 1e9 + nsec;
  // a·2^16 = ah·2^32 + al·2^16; b = bh·2^32 + (b − bh·2^32).
  const ah = Math.floor(a / TWO_POW_16);
  const bh = Math.floor(b / TWO_POW_32);
  const low = (a - ah * TWO_POW_16) * TWO_POW_16 + (b - bh * TWO_POW_32);
  const carry = low >= TWO_POW_32 ? 1 : 0;
  words[at] = low | 0;
  words[at + 1] = (ah + bh + carry) | 0;
}
