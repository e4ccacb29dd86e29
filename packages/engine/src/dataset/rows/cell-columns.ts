// Finds the columns' cells inside one row of typed cells (core's CellRowBuilder layout: 8-byte words; a time is two,
// a text its byte count then its bytes padded to a word, a list its count then its values), to read a column's value
// or copy a row without some columns.
import type { ColumnType } from "@tracemill/core";

const decoder = new TextDecoder();

export class CellColumns {
  /** Byte offset of each column's cells in the last row measured, and the row's end last. */
  readonly offsets: Int32Array;
  private words: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private wordsOf: ArrayBufferLike | null = null;

  constructor(private readonly types: readonly ColumnType[]) {
    this.offsets = new Int32Array(types.length + 1);
  }

  /** Measures the row in bytes[start, end) (start word-aligned). */
  measure(bytes: Uint8Array, start: number): void {
    const words = this.wordsFor(bytes);
    let at = start;
    for (let c = 0; c < this.types.length; c++) {
      this.offsets[c] = at;
      const type = this.types[c];
      if (type === "time") at += 16;
      else if (type === "string") at += 8 + ((words[(bytes.byteOffset + at) >>> 3] + 7) & ~7);
      else if (type === "list") at += 8 + 8 * words[(bytes.byteOffset + at) >>> 3];
      else at += 8;
    }
    this.offsets[this.types.length] = at;
  }

  /** A number or time column's value in the measured row (a time as seconds since the epoch); NaN for others. */
  number(bytes: Uint8Array, column: number): number {
    const words = this.wordsFor(bytes);
    const word = (bytes.byteOffset + this.offsets[column]) >>> 3;
    const type = this.types[column];
    if (type === "int" || type === "real") return words[word];
    if (type === "time") return words[word] + words[word + 1] / 1e9;
    return Number.NaN;
  }

  /** A text column's value in the measured row. */
  text(bytes: Uint8Array, column: number): string {
    const at = this.offsets[column];
    const length = this.wordsFor(bytes)[(bytes.byteOffset + at) >>> 3];
    return decoder.decode(bytes.subarray(at + 8, at + 8 + length));
  }

  /** Copies the measured row's cells of the columns `keep` says (in order) into `out` at `to`; returns the end. */
  copy(bytes: Uint8Array, keep: Uint8Array, out: Uint8Array, to: number): number {
    for (let c = 0; c < this.types.length; c++) {
      if (keep[c] === 0) continue;
      const from = this.offsets[c];
      const length = this.offsets[c + 1] - from;
      out.set(bytes.subarray(from, from + length), to);
      to += length;
    }
    return to;
  }

  /** The words over `bytes`' buffer (word w is buffer byte 8w): cells at offset o are word (byteOffset + o) >>> 3. */
  wordsFor(bytes: Uint8Array): Float64Array<ArrayBufferLike> {
    if (this.wordsOf !== bytes.buffer) {
      this.words = new Float64Array(bytes.buffer, 0, bytes.buffer.byteLength >>> 3);
      this.wordsOf = bytes.buffer;
    }
    return this.words;
  }
}
