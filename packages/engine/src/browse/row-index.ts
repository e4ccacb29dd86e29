// A CSV or text file (or a stored entry of a zip: a region of the file) indexed once by where every 64th row starts,
// then read from any row on: a page of a gallery or a chosen IPT series costs a seek and a few kilobytes, not a read
// of everything before it.
import type fs from "node:fs";
import {
  type CellText,
  CsvScanner,
  HeaderThenRows,
  KeptCells,
  ROW_STRIDE,
  type RowGrammar,
  RowStarts,
  type RowStartTable,
} from "@tracemill/core";
import { type FileRegion, regionChunks } from "../zip/index.js";

export interface RowIndex {
  readonly region: FileRegion;
  readonly table: RowStartTable;
}

type Handle = fs.promises.FileHandle;

const INDEX_CHUNK = 1024 * 1024;
/** A read from an arbitrary row starts small (a page is a few rows) and doubles up to 1 MiB as it goes on. */
const FIRST_CHUNK = 64 * 1024;

/**
 * Indexes the rows of `region`, 1 MiB at a time (each read awaited: a server answering other requests meanwhile is
 * never held long). `onChunk` sees the same bytes, in order, for what the caller gathers in the same pass; they are
 * valid during the call only (one buffer is read into again and again).
 */
export async function indexRows(
  handle: Handle,
  region: FileRegion,
  grammar: RowGrammar,
  onChunk?: (chunk: Buffer) => void,
): Promise<RowIndex> {
  const starts = new RowStarts(grammar);
  const chunk = Buffer.allocUnsafe(INDEX_CHUNK);
  for (let at = 0; at < region.length; ) {
    const size = Math.min(INDEX_CHUNK, region.length - at);
    const { bytesRead } = await handle.read(chunk, 0, size, region.start + at);
    if (bytesRead === 0) break;
    const bytes = chunk.subarray(0, bytesRead);
    starts.push(bytes);
    onChunk?.(bytes);
    at += bytesRead;
  }
  return { region, table: starts.end() };
}

/** The chunks of a region from `from` (relative to its start) to its end, growing from FIRST_CHUNK. */
const chunksFrom = (handle: Handle, region: FileRegion, from: number) =>
  regionChunks(handle, region, { from, first: FIRST_CHUNK });

/** Where reading row `row` starts: the indexed row at or before it, and that row's offset. */
function seek(index: RowIndex, row: number): { row: number; offset: number } {
  const slot = Math.floor(row / ROW_STRIDE);
  return { row: slot * ROW_STRIDE, offset: index.table.starts[slot] };
}

/**
 * A function giving a cell's text, made in one go by Node's decoder (a string built byte by byte leaves garbage per
 * byte). It keeps the Buffer view of the bytes it last read from: a scanner hands many cells of one array in a row.
 */
export function cellReader(): CellText {
  let viewed: Uint8Array | null = null;
  let view: Buffer = Buffer.alloc(0);
  return (bytes, start, end) => {
    if (bytes !== viewed) {
      viewed = bytes;
      view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return view.toString("utf8", start, end);
  };
}

export interface CsvRow {
  row: number;
  cells: string[];
}

/**
 * The CSV rows of an index from row `from` (0 is the header) to the end, each with its cells at the positions `keep`
 * lists (in that order; "" for a cell the row lacks), a batch per chunk read (a yield per row would cost more than
 * reading it). Rows are counted as CsvScanner reads them, as the index was.
 */
export async function* csvRows(
  handle: Handle,
  index: RowIndex,
  from: number,
  keep: readonly number[],
): AsyncGenerator<CsvRow[]> {
  if (from >= index.table.rows) return;
  const start = seek(index, from);
  let ready: CsvRow[] = [];
  let row = start.row;
  const scanner = new CsvScanner(
    new KeptCells(keep, cellReader(), (cells) => {
      if (row >= from) ready.push({ row, cells });
      row++;
    }),
  );
  for await (const chunk of chunksFrom(handle, index.region, start.offset)) {
    scanner.push(chunk);
    if (ready.length > 0) yield ready;
    ready = [];
  }
  scanner.end();
  if (ready.length > 0) yield ready;
}

/** The first `count` rows of batches (which are then left). */
export async function firstRows<T>(batches: AsyncGenerator<T[]>, count: number): Promise<T[]> {
  const taken: T[] = [];
  if (count <= 0) return taken;
  for await (const batch of batches) {
    for (const item of batch) {
      taken.push(item);
      if (taken.length >= count) return taken;
    }
  }
  return taken;
}

/** The first row of a CSV index, every cell of it (none for an empty file). */
export async function csvHeader(handle: Handle, index: RowIndex): Promise<string[]> {
  let header: string[] | null = null;
  const scanner = new CsvScanner(
    new HeaderThenRows(
      cellReader(),
      (cells) => {
        header = cells;
      },
      { cell() {}, row() {} },
    ),
  );
  for await (const chunk of chunksFrom(handle, index.region, 0)) {
    scanner.push(chunk);
    if (header !== null) return header;
  }
  scanner.end();
  return header ?? [];
}

/**
 * The lines of a text index from line `from` (0-based) on, one after another: `take` gives the next line as
 * `bytes[start, end)` (no copy, no object per line) when the bytes read hold it, and `fill` reads on when they do not.
 *   while (!lines.take()) if (!(await lines.fill())) break; // the end
 */
export class LineReader {
  /** The line last taken: `bytes[start, end)`, valid until the next take or fill. */
  bytes: Uint8Array = new Uint8Array(0);
  start = 0;
  end = 0;
  private buffer: Buffer = Buffer.alloc(0);
  private at = 0;
  private ended = false;
  private skip: number;
  private readonly chunks: AsyncGenerator<Buffer>;

  constructor(handle: Handle, index: RowIndex, from: number) {
    const start = from < index.table.rows ? seek(index, from) : { row: from, offset: index.region.length };
    this.skip = from - start.row;
    this.chunks = chunksFrom(handle, index.region, start.offset);
  }

  take(): boolean {
    for (;;) {
      const lf = this.buffer.indexOf(0x0a, this.at);
      // A last line without a line feed ends at the file's end.
      if (lf < 0 && !(this.ended && this.at < this.buffer.length)) return false;
      const end = lf < 0 ? this.buffer.length : lf;
      this.bytes = this.buffer;
      this.start = this.at;
      this.end = end;
      this.at = lf < 0 ? end : lf + 1;
      if (this.skip === 0) return true;
      this.skip--;
    }
  }

  /** Reads on; false when there is nothing more to read. */
  async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return this.at < this.buffer.length;
    }
    const rest = this.buffer.subarray(this.at);
    this.buffer = rest.length === 0 ? next.value : Buffer.concat([rest, next.value]);
    this.at = 0;
    return true;
  }
}
