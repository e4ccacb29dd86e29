// A CSV's rows as text, for readers that want cells rather than bytes: the header (every cell), then each data row's
// cells at chosen positions. The grammar is the scanner's (csv-scanner.ts); these sinks are the one place a row's
// cells are gathered, for the explorer's cache, the gallery's manifest and CSV, and the IPT plots' sessions.
import type { CsvCellSink } from "./csv-scanner.js";

/** A cell's text from its bytes, given by the caller: the pure core has no UTF-8 decoder of Node's speed. */
export type CellText = (bytes: Uint8Array, start: number, end: number) => string;

/**
 * The first row read as the header, every cell's text, given to `onHeader` with the line it starts on; every later
 * cell and row goes on to `rows` as the scanner gives it.
 */
export class HeaderThenRows implements CsvCellSink {
  private header: string[] | null = null;
  private readonly cells: string[] = [];

  constructor(
    private readonly text: CellText,
    private readonly onHeader: (header: string[], line: number) => void,
    private readonly rows: CsvCellSink,
  ) {}

  cell(column: number, bytes: Uint8Array, start: number, end: number): void {
    if (this.header === null) this.cells.push(this.text(bytes, start, end));
    else this.rows.cell(column, bytes, start, end);
  }

  row(cells: number, line: number): void {
    if (this.header !== null) {
      this.rows.row(cells, line);
      return;
    }
    this.header = this.cells;
    this.onHeader(this.header, line);
  }
}

/**
 * Each row's cells at the positions `keep` lists, in that order, as text ("" for a cell the row lacks), given to
 * `onRow` with the line the row starts on. Other cells are never made text.
 */
export class KeptCells implements CsvCellSink {
  /** Entry c: where column c goes in a row's cells, or -1 when it is not kept. */
  private readonly slots: Int32Array;
  private cells: string[];

  constructor(
    private readonly keep: readonly number[],
    private readonly text: CellText,
    private readonly onRow: (cells: string[], line: number) => void,
  ) {
    this.slots = new Int32Array(Math.max(0, ...keep) + 1).fill(-1);
    keep.forEach((column, slot) => {
      this.slots[column] = slot;
    });
    this.cells = keep.map(() => "");
  }

  cell(column: number, bytes: Uint8Array, start: number, end: number): void {
    const slot = column < this.slots.length ? this.slots[column] : -1;
    if (slot >= 0) this.cells[slot] = this.text(bytes, start, end);
  }

  row(_cells: number, line: number): void {
    const cells = this.cells;
    this.cells = this.keep.map(() => "");
    this.onRow(cells, line);
  }
}
