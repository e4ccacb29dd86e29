// A row as typed binary cells instead of CSV text, for a columnar output (Parquet): the same calls as RowBuilder, the
// same values as its text (rounded the same way), without formatting digits that would be parsed back.
import { encodeUtf8 } from "../capture/utf8.js";
import { writeDotted, writeIpv4Word, writeIpv6 } from "./address-text.js";
import { RowBuilder } from "./row-builder.js";

const TWO_POW_53 = 2 ** 53;

/**
 * Writes one row as cells, in column order, 8-byte words throughout (the row starts at byte 0 of `bytes`, so every
 * number sits aligned in the Float64Array over it):
 * - a number column ("int", "real"): one float64, the value the CSV's text denotes (a real is rounded to the CSV's
 *   decimals here: `decimal` to 10^-6, `seconds` to the nanosecond), so reading it back gives the CSV's value exactly;
 * - a time ("time"): two float64 words, whole seconds (of either sign) and nanoseconds 0..999 999 999;
 * - text ("string"): its UTF-8 byte count as one float64 word, then the bytes, padded with zeros to a whole word;
 * - a list ("list"): its count as one float64 word, then one float64 per value.
 * `RowCells` (row-cells.ts) reads them back by the columns' types. `end()` adds nothing: the reader knows where a row
 * ends from its types. Every public method of RowBuilder is overridden (cell-row-builder.test.ts checks it), so a
 * feature group cannot write text into a cell row.
 */
export class CellRowBuilder extends RowBuilder {
  private words = new Float64Array(this.bytes.buffer);

  override start(): void {
    this.length = 0;
  }

  override end(): void {}

  override int(value: number): void {
    this.number(value);
  }

  override ints(values: Float64Array, at: number, count: number): void {
    this.room(8 * count);
    const words = this.words;
    let word = this.length >>> 3;
    for (let i = at, end = at + count; i < end; i++) words[word++] = values[i];
    this.length = word << 3;
  }

  override signed(value: number): void {
    this.number(value);
  }

  override list(values: ArrayLike<number>, count: number): void {
    this.room(8 * count + 8);
    const words = this.words;
    let word = this.length >>> 3;
    words[word++] = count;
    for (let i = 0; i < count; i++) words[word++] = values[i];
    this.length = word << 3;
  }

  override zeros(count: number): void {
    this.room(8 * count);
    this.words.fill(0, this.length >>> 3, (this.length >>> 3) + count);
    this.length += 8 * count;
  }

  override columns(cells: Uint8Array, _count: number): void {
    this.room(cells.length);
    this.bytes.set(cells, this.length);
    this.length += cells.length;
  }

  override seconds(nanoseconds: number): void {
    this.number(Math.round(nanoseconds) / 1e9);
  }

  override epoch(sec: number, nsec: number): void {
    this.room(16);
    const word = this.length >>> 3;
    this.words[word] = sec;
    this.words[word + 1] = nsec;
    this.length += 16;
  }

  override decimal(value: number): void {
    // As RowBuilder.decimal: 0 for what is not a positive finite number, 6 decimals below 2^53 / 10^6, whole above.
    if (!(value > 0) || value === Number.POSITIVE_INFINITY) this.number(0);
    else {
      const scaled = Math.round(value * 1e6);
      this.number(scaled < TWO_POW_53 ? scaled / 1e6 : Math.round(value));
    }
  }

  override ascii(text: string): void {
    this.text(text);
  }

  override text(value: string): void {
    // Lone surrogates become U+FFFD, as RowBuilder.text writes them.
    const utf8 = encodeUtf8(value.replace(/[\ud800-\udfff]/gu, "\ufffd"));
    this.room(utf8.length + 16);
    this.bytes.set(utf8, this.length + 8);
    this.endText(utf8.length);
  }

  override ipv4(word: number): void {
    this.room(24);
    this.endText(writeIpv4Word(this.bytes, this.length + 8, word) - this.length - 8);
  }

  override address(bytes: Uint8Array, ipVersion: 4 | 6): void {
    this.room(48);
    const at = this.length + 8;
    this.endText((ipVersion === 4 ? writeDotted(this.bytes, at, bytes, 0) : writeIpv6(this.bytes, at, bytes)) - at);
  }

  /** A text cell whose `count` bytes are in place after its length word: writes the length, pads to a word. */
  private endText(count: number): void {
    this.words[this.length >>> 3] = count;
    const end = this.length + 8 + count;
    const padded = (end + 7) & ~7;
    this.bytes.fill(0, end, padded);
    this.length = padded;
  }

  private number(value: number): void {
    if (this.length + 8 > this.bytes.length) this.room(8);
    this.words[this.length >>> 3] = value;
    this.length += 8;
  }

  /** Grows `bytes` (by doubling) so that `extra` more bytes fit. */
  private room(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, (this.length + extra + 7) & ~7));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.words = new Float64Array(grown.buffer);
  }
}
