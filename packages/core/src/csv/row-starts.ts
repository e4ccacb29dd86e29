// Where each row of a file starts, found in chunks of its bytes, so that a reader can later jump to row k without
// reading the rows before it. A CSV's rows follow the grammar CsvScanner reads (a line end inside a quoted cell is no
// row end; blank lines are no rows); a text file's rows are its lines, empty ones included (an IPT line may be empty).

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Rows whose start is kept: every STRIDE-th (0, STRIDE, 2·STRIDE, …); a reader skips at most STRIDE − 1 rows. */
export const ROW_STRIDE = 64;

export type RowGrammar = "csv" | "lines";

/** The start (byte offset) of every ROW_STRIDE-th row, and how many rows there are. */
export interface RowStartTable {
  readonly rows: number;
  /** Entry i: where row i·ROW_STRIDE starts, relative to the first byte pushed. */
  readonly starts: Float64Array;
}

/** Pushed chunks in, a RowStartTable out. */
export class RowStarts {
  private rows = 0;
  private starts = new Float64Array(1024);
  /** Bytes pushed before the current chunk. */
  private base = 0;
  /** Where the current row starts (a CSV's next row, when it is at a row start). */
  private rowStart = 0;
  /** Whether the current row has begun: a CSV's blank lines are skipped, and a row is counted at its first byte. */
  private begun = false;
  /** Inside a quoted cell; its last byte seen was a quote that the next chunk's first byte decides. */
  private quoted = false;
  private quoteAtEnd = false;
  /** The last byte of the previous chunk (a cell starts after a comma). */
  private previous = -1;
  /** The previous chunk ended in a CR where a CSV row would start: a blank line if a line feed follows. */
  private crAtEnd = false;

  constructor(private readonly grammar: RowGrammar) {}

  push(chunk: Uint8Array): void {
    if (this.grammar === "lines") this.pushLines(chunk);
    else this.pushCsv(chunk);
    if (chunk.length > 0) this.previous = chunk[chunk.length - 1];
    this.base += chunk.length;
  }

  /** The table, once every chunk is pushed: a last row without a line end counts when it has any byte. */
  end(): RowStartTable {
    if (this.crAtEnd) this.begin(this.base - 1);
    if (this.begun) this.endRow();
    return { rows: this.rows, starts: this.starts.subarray(0, Math.ceil(this.rows / ROW_STRIDE)) };
  }

  private pushLines(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (!this.begun) this.begin(this.base + at);
      const lf = chunk.indexOf(LF, at);
      if (lf < 0) return;
      this.endRow();
      at = lf + 1;
    }
  }

  private pushCsv(chunk: Uint8Array): void {
    const n = chunk.length;
    let at = 0;
    if (this.crAtEnd && n > 0) {
      this.crAtEnd = false;
      if (chunk[0] === LF) at = 1;
      else this.begin(this.base - 1);
    }
    if (this.quoteAtEnd && n > 0) {
      this.quoteAtEnd = false;
      // `""` is an escaped quote and the cell goes on; anything else follows the closing quote.
      if (chunk[0] === QUOTE) at = 1;
      else this.quoted = false;
    }
    let quote = -2;
    while (at < n) {
      if (this.quoted) {
        const close = chunk.indexOf(QUOTE, at);
        if (close < 0) return;
        if (close + 1 === n) {
          this.quoteAtEnd = true;
          return;
        }
        if (chunk[close + 1] === QUOTE) at = close + 2;
        else {
          this.quoted = false;
          at = close + 1;
        }
        continue;
      }
      if (!this.begun) {
        // A blank line (nothing, or a lone CR, before its line feed) is no row.
        if (chunk[at] === LF) {
          at++;
          continue;
        }
        if (chunk[at] === CR && at + 1 === n) {
          this.crAtEnd = true;
          return;
        }
        if (chunk[at] === CR && chunk[at + 1] === LF) {
          at += 2;
          continue;
        }
        this.begin(this.base + at);
        if (chunk[at] === QUOTE) {
          this.quoted = true;
          at++;
          continue;
        }
      }
      const lf = chunk.indexOf(LF, at);
      // The next quote is looked for again only once passed: most CSVs have none, and a search per row would read
      // the rest of the chunk every time.
      if (quote !== -1 && quote < at) quote = chunk.indexOf(QUOTE, at);
      if (quote >= 0 && (lf < 0 || quote < lf)) {
        // A quote opens a quoted cell only at a cell's start; inside an unquoted cell it is text.
        const before = quote > 0 ? chunk[quote - 1] : this.previous;
        if (before === COMMA) this.quoted = true;
        at = quote + 1;
        continue;
      }
      if (lf < 0) return;
      this.endRow();
      at = lf + 1;
    }
  }

  private begin(start: number): void {
    this.begun = true;
    this.rowStart = start;
  }

  private endRow(): void {
    if (this.rows % ROW_STRIDE === 0) {
      const slot = this.rows / ROW_STRIDE;
      if (slot === this.starts.length) {
        const grown = new Float64Array(this.starts.length * 2);
        grown.set(this.starts);
        this.starts = grown;
      }
      this.starts[slot] = this.rowStart;
    }
    this.rows++;
    this.begun = false;
  }
}
