// RFC 4180 cells from a CSV given in chunks of bytes, handed to a sink as byte ranges: the explorer reads a whole
// output once, and making a string of every cell (most of them numbers) would cost more than the reading.

import { TracemillError } from "../errors.js";

/** A longer cell is no output of a table's: reading on would copy it again with every chunk. */
export const MAX_CELL_BYTES = 1024 * 1024;

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export interface CsvCellSink {
  /** Cell `column` (0-based) of the current row: `bytes[start, end)`, unquoted and unescaped. Valid during the call. */
  cell(column: number, bytes: Uint8Array, start: number, end: number): void;
  /** The end of a row of `cells` cells that starts on `line` (1-based). */
  row(cells: number, line: number): void;
}

/** What the scanner saw that a well-formed CSV does not have. */
export interface CsvOddities {
  /** The file ends inside a quoted cell: its quote is never closed. */
  unclosedQuote: boolean;
  /** Cells with text after their closing quote (`"a"b`), read as written; the first one's line. */
  strayQuotes: number;
  firstStrayQuoteLine: number;
}

/**
 * Pushed chunks in, cells and rows out. A cell cut by a chunk's end waits, copied, for the next chunk. Blank lines are
 * skipped; a row's line end is LF or CRLF; a UTF-8 byte order mark at the start is skipped.
 */
export class CsvScanner {
  private pending: Uint8Array | null = null;
  private column = 0;
  /** The line the current row started on, and the line the scan is on. */
  private rowLine = 1;
  private line = 1;
  private started = false;
  /** Whether the quoted cell quotedEnd last found holds an escaped quote (`""`). */
  private escaped = false;
  private readonly oddities: CsvOddities = { unclosedQuote: false, strayQuotes: 0, firstStrayQuoteLine: 0 };

  constructor(private readonly sink: CsvCellSink) {}

  /** The line the scan has reached. */
  get currentLine(): number {
    return this.line;
  }

  push(chunk: Uint8Array): void {
    let bytes = chunk;
    if (!this.started) {
      this.started = true;
      if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    if (this.pending !== null) {
      const joined = new Uint8Array(this.pending.length + bytes.length);
      joined.set(this.pending);
      joined.set(bytes, this.pending.length);
      bytes = joined;
      this.pending = null;
    }
    const rest = this.scan(bytes, false);
    // A copy: the caller may reuse its chunk (and a Node Buffer's slice() would be a view of it).
    if (rest < bytes.length) this.pending = copyOf(bytes, rest);
    if (this.pending !== null && this.pending.length > MAX_CELL_BYTES) {
      throw new TracemillError("BAD_INPUT", `line ${this.line}: a cell longer than 1 MiB (an unclosed quote?)`);
    }
  }

  /** The last row, when the file does not end with a line end; then what was odd about the file. */
  end(): CsvOddities {
    const bytes = this.pending ?? new Uint8Array(0);
    this.pending = null;
    const rest = this.scan(bytes, true);
    if (rest < bytes.length || this.column > 0) {
      this.lastCell(bytes, rest);
      this.endRow();
    }
    return this.oddities;
  }

  /**
   * Scans the cells of `bytes` that end in it; returns where the first one that does not starts (it may continue in
   * the next chunk, or with `last` it is the file's last cell).
   */
  private scan(bytes: Uint8Array, last: boolean): number {
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      let next: number;
      if (bytes[i] === QUOTE) {
        const close = this.quotedEnd(bytes, i, last);
        if (close < 0) return i;
        // Text after the closing quote belongs to the cell as written.
        next = close + 1;
        while (next < n && bytes[next] !== COMMA && bytes[next] !== LF) next++;
        if (next === n) return i;
        this.emitQuoted(bytes, i, close, next);
      } else {
        next = i;
        while (next < n && bytes[next] !== COMMA && bytes[next] !== LF) next++;
        if (next === n) return i;
        const end = next > i && bytes[next - 1] === CR && bytes[next] === LF ? next - 1 : next;
        if (bytes[next] === LF && this.column === 0 && end === i) {
          // A line with nothing on it is no row.
          this.line++;
          this.rowLine = this.line;
          i = next + 1;
          continue;
        }
        this.sink.cell(this.column, bytes, i, end);
      }
      if (bytes[next] === COMMA) this.column++;
      else this.endRow();
      i = next + 1;
    }
    return n;
  }

  /**
   * The position of the quote that closes the cell opening at `open`, or -1 when the bytes end first. A quote at the
   * very end of a chunk may be the first of an escaped pair: -1 too, unless it is the file's end (`last`).
   */
  private quotedEnd(bytes: Uint8Array, open: number, last: boolean): number {
    const n = bytes.length;
    this.escaped = false;
    for (let j = open + 1; j < n; j++) {
      if (bytes[j] !== QUOTE) continue;
      if (j + 1 === n) return last ? j : -1;
      if (bytes[j + 1] !== QUOTE) return j;
      this.escaped = true;
      j++;
    }
    return -1;
  }

  /** A quoted cell opening at `open` and closing at `close`, with what follows its closing quote up to `next`. */
  private emitQuoted(bytes: Uint8Array, open: number, close: number, next: number): void {
    let end = next;
    if (end > close + 1 && bytes[end - 1] === CR && (end === bytes.length || bytes[end] === LF)) end--;
    if (end > close + 1) {
      this.oddities.strayQuotes++;
      if (this.oddities.strayQuotes === 1) this.oddities.firstStrayQuoteLine = this.line;
    }
    // Most quoted cells (lists, text with commas) hold no escaped quote: their bytes are given as they are.
    if (!this.escaped && end === close + 1) this.emitUnescaped(bytes, open + 1, close);
    else this.emitUnescaped(unescaped(bytes, open + 1, close, end));
  }

  /** The file's last cell, `bytes[start, end)`: quoted (its quote possibly never closed) or not. */
  private lastCell(bytes: Uint8Array, start: number): void {
    const n = bytes.length;
    if (start < n && bytes[start] === QUOTE) {
      const close = this.quotedEnd(bytes, start, true);
      if (close >= 0) {
        this.emitQuoted(bytes, start, close, n);
      } else {
        this.oddities.unclosedQuote = true;
        this.emitUnescaped(unescaped(bytes, start + 1, n, n));
      }
      return;
    }
    this.sink.cell(this.column, bytes, start, n > start && bytes[n - 1] === CR ? n - 1 : n);
  }

  private emitUnescaped(cell: Uint8Array, start = 0, end = cell.length): void {
    // Line ends inside a quoted cell move the line count on, so later rows are named by their real lines.
    for (let k = start; k < end; k++) if (cell[k] === LF) this.line++;
    this.sink.cell(this.column, cell, start, end);
  }

  private endRow(): void {
    this.sink.row(this.column + 1, this.rowLine);
    this.column = 0;
    this.line++;
    this.rowLine = this.line;
  }
}

function copyOf(bytes: Uint8Array, from: number): Uint8Array {
  const copy = new Uint8Array(bytes.length - from);
  copy.set(bytes.subarray(from));
  return copy;
}

/** A quoted cell's content `bytes[start, close)` with each `""` made `"`, followed by `bytes[close + 1, end)`. */
function unescaped(bytes: Uint8Array, start: number, close: number, end: number): Uint8Array {
  const out = new Uint8Array(close - start + Math.max(0, end - close - 1));
  let length = 0;
  for (let k = start; k < close; k++) {
    out[length++] = bytes[k];
    if (bytes[k] === QUOTE && bytes[k + 1] === QUOTE) k++;
  }
  for (let k = close + 1; k < end; k++) out[length++] = bytes[k];
  return out.subarray(0, length);
}
