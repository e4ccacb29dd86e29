// A Parquet file of typed rows, written a row group at a time while the rows come (parquet-wasm: the Rust arrow-rs
// writer compiled to WebAssembly, fed batches of rows as Arrow IPC streams, arrow-ipc.ts), under a temporary name
// renamed when complete. The run summary goes into the footer's key-value metadata, which the writer takes when it
// starts: room is reserved there, and the summary written into it once known (docs/formats.md, "Parquet output").
import { type Column, type ColumnValues, RowCells, TracemillError } from "@tracemill/core";
import type * as ParquetWasm from "parquet-wasm";
import { ArrowIpcWriter } from "./arrow-ipc.js";
import { OutputFile, outputError } from "./output-file.js";

/** Rows per row group. */
export const PARQUET_ROW_GROUP_ROWS = 65_536;
/**
 * Rows per batch handed to the writer, which gathers them into row groups: a row group's columns whole (about 26 MB
 * for 50 number columns) grew the WebAssembly memory and the JavaScript columns by that much, memory touched for the
 * first time, which costs more than the copies it would save (docs/performance.md).
 */
const BATCH_ROWS = 8192;

/** The footer's key-value metadata entry that holds the run summary (JSON). */
export const SUMMARY_METADATA_KEY = "tracemill.summary";

export interface ParquetFileOptions {
  /** The file's `created_by`, e.g. "tracemill 0.1.0". */
  createdBy: string;
  /** Bytes reserved for the summary in the footer (its JSON is padded with spaces to this length). */
  summaryBytes: number;
  /** Rows per row group (default PARQUET_ROW_GROUP_ROWS). */
  rowGroupRows?: number;
}

/**
 * Rows of cells (core's CellRowBuilder, put in order by OrderedRows) in, a Parquet file out. `write` is the rows'
 * sink; `commit(summary)` ends the file and gives it its name; `discard()` removes it.
 */
export class ParquetFile {
  private readonly cells: RowCells;
  private readonly ipc: ArrowIpcWriter;
  private input!: ReadableStreamDefaultController<ParquetWasm.RecordBatch>;
  private readonly written: Promise<void>;
  private failure: unknown = null;
  /** The last piece the writer gave, kept back: the footer, with the summary's room, is in it at the end. */
  private held: Uint8Array | null = null;
  private batches = 0;

  private constructor(
    private readonly file: OutputFile,
    schema: readonly Column[],
    private readonly parquet: typeof ParquetWasm,
    options: ParquetFileOptions,
  ) {
    this.ipc = new ArrowIpcWriter(schema);
    const rows = options.rowGroupRows ?? PARQUET_ROW_GROUP_ROWS;
    this.cells = new RowCells(
      schema.map((column) => column.type),
      Math.min(rows, BATCH_ROWS),
      (batch, count) => this.encode(batch, count),
    );
    // No dictionary encoding: it hashed every value of every column, a large part of the writer's time, for a file
    // only somewhat smaller than ZSTD over plain values gives (docs/performance.md, "Design decisions").
    const properties = new parquet.WriterPropertiesBuilder()
      .setCompression(parquet.Compression.ZSTD)
      .setDictionaryEnabled(false)
      .setMaxRowGroupSize(rows)
      .setStatisticsEnabled(parquet.EnabledStatistics.Chunk)
      .setCreatedBy(options.createdBy)
      .setKeyValueMetadata(new Map([[SUMMARY_METADATA_KEY, " ".repeat(options.summaryBytes)]]))
      .build();
    const batches = new ReadableStream<ParquetWasm.RecordBatch>({
      start: (controller) => {
        this.input = controller;
      },
    });
    this.written = this.drain(parquet.transformParquetStream(batches, properties));
    // Seen at commit; until then a failure must not go unhandled.
    this.written.catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  /** Creates `path`'s temporary file and loads the writer (parquet-wasm loads only for Parquet). */
  static async open(path: string, schema: readonly Column[], options: ParquetFileOptions): Promise<ParquetFile> {
    const parquet = await import("parquet-wasm");
    return new ParquetFile(new OutputFile(path), schema, parquet, options);
  }

  get path(): string {
    return this.file.path;
  }

  /** The rows of cells in bytes[start, end), in order (a RowSink). */
  write(bytes: Uint8Array, start: number, end: number): void {
    if (this.failure !== null) throw this.failed();
    this.cells.add(bytes, start, end);
  }

  /**
   * Resolves when the writer has taken the batches handed to it so far: a caller that has its rows at hand (not
   * read from a capture as they come) waits here now and then, or the batches pile up in memory.
   */
  async caughtUp(): Promise<void> {
    while ((this.input.desiredSize ?? 1) <= 0 && this.failure === null) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Writes the last row group and the footer with `summary` in its room, then gives the file its name. */
  async commit(summary: string): Promise<void> {
    // A file of no rows gets one empty batch: the writer takes its columns from the batches.
    this.cells.flush(this.batches === 0);
    this.input.close();
    await this.written.catch(() => undefined);
    if (this.failure !== null) throw this.failed();
    if (this.held === null) throw outputError(this.file.path, "was not written", new Error("the writer gave no bytes"));
    fillMetadata(this.held, SUMMARY_METADATA_KEY, summary, this.file.path);
    this.file.write(this.held);
    await this.file.commit();
  }

  /** Stops the writer and removes the temporary file. */
  async discard(): Promise<void> {
    this.failure ??= new Error("discarded");
    try {
      this.input.error(new Error("discarded"));
    } catch {
      // Closed already (the failure came at commit): nothing more reaches the writer.
    }
    await this.written.catch(() => undefined);
    await this.file.discard();
  }

  /** A batch of rows: its columns as an Arrow IPC stream, which the writer reads into its own memory. */
  private encode(batch: readonly ColumnValues[], rows: number): void {
    this.batches++;
    const table = this.parquet.Table.fromIPCStream(this.ipc.encode(batch, rows));
    for (const recordBatch of table.recordBatches()) this.input.enqueue(recordBatch);
    table.free();
  }

  /** Writes the writer's output as it comes, holding back the last piece. */
  private async drain(output: Promise<ReadableStream<Uint8Array>>): Promise<void> {
    const reader = (await output).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (this.held !== null) this.file.write(this.held);
      this.held = value;
    }
  }

  private failed(): TracemillError {
    const failure = this.failure;
    if (failure instanceof TracemillError) return failure;
    return outputError(this.file.path, "could not be written as Parquet", failure);
  }
}

/**
 * Writes `value`, padded with spaces, into the room the footer holds for `key`: the metadata entry as Thrift's compact
 * protocol writes it (field 1, the key, then field 2, the value: each a 0x18 header, a varint length, the bytes).
 */
export function fillMetadata(footer: Uint8Array, key: string, value: string, file: string): void {
  const keyBytes = Buffer.from(key);
  const text = Buffer.from(value);
  const found = Buffer.from(footer.buffer, footer.byteOffset, footer.byteLength).lastIndexOf(keyBytes);
  let at = found + keyBytes.length;
  if (found < 0 || footer[at++] !== 0x18) throw new Error(`${file}: the footer has no room for ${key}`);
  let room = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = footer[at++];
    room |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  if (text.length > room)
    throw new TracemillError(
      "OUTPUT_FAILED",
      `${file}: the ${key} metadata (${text.length} bytes) exceeds its ${room}`,
      {
        file,
      },
    );
  footer.set(text, at);
  footer.fill(0x20, at + text.length, at + room);
}
