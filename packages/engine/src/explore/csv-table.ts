// A CSV output read once, whole, into the explorer's cache: every column's values in its own file, so that any column
// is then answered without reading the CSV again (a CSV cannot be read one column at a time).
import fs from "node:fs";
import {
  type CsvCellSink,
  type CsvOddities,
  CsvScanner,
  HeaderThenRows,
  type InvalidCell,
  parseNumberCell,
  quoted,
} from "@tracemill/core";
import { appendValues, buildWhole, finishColumn, type TableColumnInfo, writeTableInfo } from "./table-cache.js";

const READ_BYTES = 1024 * 1024;
/** Values a column holds before they go to its file. */
const CHUNK_VALUES = 16_384;

/**
 * Builds the cache of `file` in `dir` (table-cache.ts). `label` names the file in messages. The CSV is read in 1 MiB
 * chunks, each awaited, so a server answering other requests meanwhile is never held for long.
 */
export async function buildCsvCache(file: string, dir: string, label: string): Promise<void> {
  await buildWhole(dir, async (temporary) => {
    const columns = new CsvColumns(temporary);
    const scanner = new CsvScanner(new HeaderThenRows(cellText, (header) => columns.start(header), columns));
    const handle = await fs.promises.open(file, "r");
    try {
      // Two buffers: the next chunk is read while this one is scanned (the scanner copies what it keeps of one).
      const chunks = [Buffer.allocUnsafe(READ_BYTES), Buffer.allocUnsafe(READ_BYTES)];
      let reading = handle.read(chunks[0], 0, READ_BYTES, null);
      for (let turn = 1; ; turn++) {
        const { bytesRead, buffer } = await reading;
        if (bytesRead === 0) break;
        reading = handle.read(chunks[turn % 2], 0, READ_BYTES, null);
        scanner.push(buffer.subarray(0, bytesRead));
        await columns.flush();
      }
      await reading;
    } finally {
      await handle.close();
    }
    const oddities = scanner.end();
    await columns.finish();
    await writeTableInfo(temporary, {
      format: "csv",
      rows: columns.rows,
      columns: columns.infos(),
      problems: columns.problems(label, oddities),
    });
  });
}

const utf8 = new TextDecoder();

/** Cells this long are decoded natively; shorter ones are made directly (cheaper than a call into the decoder). */
const DECODED_LENGTH = 16;

/** The text of a cell: short ASCII directly, anything else decoded as UTF-8 (one flat string, not one per byte). */
function cellText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start >= DECODED_LENGTH) return utf8.decode(bytes.subarray(start, end));
  let text = "";
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte >= 0x80) return utf8.decode(bytes.subarray(start, end));
    text += String.fromCharCode(byte);
  }
  return text;
}

/** The cells of a CSV's data rows sorted into one builder per column of its header. */
class CsvColumns implements CsvCellSink {
  rows = 0;
  private header: string[] | null = null;
  private builders: ColumnBuilder[] = [];
  private shortRows = 0;
  private longRows = 0;
  private firstRaggedLine = 0;
  private firstRaggedCells = 0;
  /** Invalid cells of the current row, first of their columns, whose line the row's end tells. */
  private readonly unplaced: InvalidCell[] = [];

  constructor(private readonly dir: string) {}

  start(header: string[]): void {
    this.header = header;
    this.builders = header.map((_, index) => new ColumnBuilder(this.dir, index, this.unplaced));
  }

  cell(column: number, bytes: Uint8Array, start: number, end: number): void {
    if (column < this.builders.length) this.builders[column].add(bytes, start, end, this.rows + 1);
  }

  row(cells: number, line: number): void {
    this.rows++;
    for (const cell of this.unplaced) cell.line = line;
    this.unplaced.length = 0;
    const width = this.builders.length;
    if (cells === width) return;
    for (let column = cells; column < width; column++) this.builders[column].addMissing();
    if (cells < width) this.shortRows++;
    else this.longRows++;
    if (this.shortRows + this.longRows === 1) {
      this.firstRaggedLine = line;
      this.firstRaggedCells = cells;
    }
  }

  /** Writes the values each column has gathered. */
  async flush(): Promise<void> {
    await Promise.all(this.builders.map((builder) => builder.flush(false)));
  }

  async finish(): Promise<void> {
    await Promise.all(this.builders.map((builder) => builder.flush(true)));
    await Promise.all(this.builders.map((builder) => builder.finish()));
  }

  infos(): TableColumnInfo[] {
    return (this.header ?? []).map((name, index) => ({ name, type: this.builders[index].type ?? "numeric" }));
  }

  problems(label: string, oddities: CsvOddities): string[] {
    const problems: string[] = [];
    if (this.header === null) problems.push(`${label} is empty: it has no header line`);
    const width = this.builders.length;
    if (this.shortRows + this.longRows > 0) {
      problems.push(
        `${label}: ${this.shortRows} rows have fewer cells than the header's ${width} (their last cells count as ` +
          `missing) and ${this.longRows} more (the cells past the header's are left out); the first, at line ` +
          `${this.firstRaggedLine}, has ${this.firstRaggedCells}`,
      );
    }
    const seen = new Set<string>();
    for (const name of this.header ?? []) {
      if (seen.has(name))
        problems.push(`${label}: the column name "${quoted(name)}" is given twice; the first is explored`);
      seen.add(name);
    }
    if (oddities.unclosedQuote) problems.push(`${label} ends inside a quoted cell: its quote is never closed`);
    if (oddities.strayQuotes > 0) {
      problems.push(
        `${label}: ${oddities.strayQuotes} quoted cells have text after their closing quote (read as written); ` +
          `the first at line ${oddities.firstStrayQuoteLine}`,
      );
    }
    return problems;
  }
}

/**
 * One column's values as the rows come. Its type is its first non-empty cell's: a number makes it numeric, and any
 * later cell that is no number is counted as invalid (the first one kept to be shown); anything else makes it text.
 */
class ColumnBuilder {
  type: "numeric" | "text" | null = null;
  /** Empty cells before the type was known. */
  private leading = 0;
  /** The values gathering (doubles or codes, as the type says), those full and waiting, and spares once written. */
  private numbers: Float64Array = new Float64Array(0);
  private codes: Uint32Array = new Uint32Array(0);
  private at = 0;
  private full: (Float64Array | Uint32Array)[] = [];
  private spare: (Float64Array | Uint32Array)[] = [];
  private missing = 0;
  private invalid = 0;
  private firstInvalid: InvalidCell | null = null;
  private readonly codeOf = new Map<string, number>([["", 0]]);
  private readonly dictionary: string[] = [""];

  constructor(
    private readonly dir: string,
    private readonly index: number,
    /** Where a first invalid cell goes to be given its line at the row's end. */
    private readonly unplaced: InvalidCell[],
  ) {}

  add(bytes: Uint8Array, start: number, end: number, row: number): void {
    if (start === end) {
      this.addMissing();
      return;
    }
    // Numbers first: most cells of a feature table are.
    if (this.type === "numeric") {
      const value = parseNumberCell(bytes, start, end);
      if (Number.isNaN(value)) this.noNumber(bytes, start, end, row);
      this.numbers[this.at++] = value;
      if (this.at === CHUNK_VALUES) this.nextChunk();
      return;
    }
    if (this.type === null) {
      this.decide(Number.isNaN(parseNumberCell(bytes, start, end)) ? "text" : "numeric");
      this.add(bytes, start, end, row);
      return;
    }
    const text = cellText(bytes, start, end);
    let code = this.codeOf.get(text);
    if (code === undefined) {
      code = this.dictionary.push(text) - 1;
      this.codeOf.set(text, code);
    }
    this.codes[this.at++] = code;
    if (this.at === CHUNK_VALUES) this.nextChunk();
  }

  addMissing(): void {
    if (this.type === null) {
      this.leading++;
      return;
    }
    if (this.type === "numeric") {
      this.missing++;
      this.numbers[this.at++] = Number.NaN;
    } else {
      this.codes[this.at++] = 0;
    }
    if (this.at === CHUNK_VALUES) this.nextChunk();
  }

  private noNumber(bytes: Uint8Array, start: number, end: number, row: number): void {
    this.invalid++;
    if (this.firstInvalid !== null) return;
    this.firstInvalid = { row, line: null, text: quoted(cellText(bytes, start, end)) };
    this.unplaced.push(this.firstInvalid);
  }

  private decide(type: "numeric" | "text"): void {
    this.type = type;
    if (type === "numeric") this.numbers = new Float64Array(CHUNK_VALUES);
    else this.codes = new Uint32Array(CHUNK_VALUES);
    const leading = this.leading;
    this.leading = 0;
    for (let i = 0; i < leading; i++) this.addMissing();
  }

  /** A full chunk waits for its file; buffers come back from it once written, sparing fresh ones' zeroing. */
  private nextChunk(): void {
    if (this.type === "numeric") {
      this.full.push(this.numbers);
      this.numbers = (this.spare.pop() as Float64Array | undefined) ?? new Float64Array(CHUNK_VALUES);
    } else {
      this.full.push(this.codes);
      this.codes = (this.spare.pop() as Uint32Array | undefined) ?? new Uint32Array(CHUNK_VALUES);
    }
    this.at = 0;
  }

  async flush(all: boolean): Promise<void> {
    if (all) {
      // A column whose every cell was empty is numeric with nothing but missing values.
      if (this.type === null) this.decide("numeric");
      if (this.at > 0) this.full.push((this.type === "numeric" ? this.numbers : this.codes).slice(0, this.at));
      this.at = 0;
    }
    const full = this.full;
    this.full = [];
    for (const values of full) {
      await appendValues(this.dir, this.index, values);
      if (values.length === CHUNK_VALUES) this.spare.push(values);
    }
  }

  async finish(): Promise<void> {
    if (this.type !== "numeric") return finishColumn(this.dir, this.index, this.dictionary);
    // A file is needed even for a column of a header alone.
    await appendValues(this.dir, this.index, new Float64Array(0));
    await finishColumn(this.dir, this.index, {
      missing: this.missing,
      invalid: this.invalid,
      firstInvalid: this.firstInvalid,
    });
  }
}
