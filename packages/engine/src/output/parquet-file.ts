// A Parquet file of typed rows, written a row group at a time while the rows come (parquet-wasm: the Rust arrow-rs
// writer compiled to WebAssembly, fed Arrow record batches), under a temporary name renamed when complete. The run
// summary goes into the footer's key-value metadata, which the writer takes when it starts: room is reserved there,
// and the summary written into it once known (docs/formats.md, "Parquet output").
import { type Column, type ColumnValues, RowCells, TracemillError } from "@tracemill/core";
import type * as Arrow from "apache-arrow";
import type * as ParquetWasm from "parquet-wasm";
import { OutputFile, outputError } from "./output-file.js";

/** Rows per row group: each is gathered as columns (about 26 MB for 50 number columns) before it is encoded. */
export const PARQUET_ROW_GROUP_ROWS = 65_536;

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
  private readonly fields: Arrow.Field[];
  private input!: ReadableStreamDefaultController<ParquetWasm.RecordBatch>;
  private readonly written: Promise<void>;
  private failure: unknown = null;
  /** The last piece the writer gave, kept back: the footer, with the summary's room, is in it at the end. */
  private held: Uint8Array | null = null;

  private constructor(
    private readonly file: OutputFile,
    schema: readonly Column[],
    private readonly arrow: typeof Arrow,
    private readonly parquet: typeof ParquetWasm,
    options: ParquetFileOptions,
  ) {
    this.fields = schema.map((column) => new arrow.Field(column.name, arrowType(arrow, column), false));
    const rows = options.rowGroupRows ?? PARQUET_ROW_GROUP_ROWS;
    this.cells = new RowCells(
      schema.map((column) => column.type),
      rows,
      (batch, count) => this.encode(batch, count),
    );
    const properties = new parquet.WriterPropertiesBuilder()
      .setCompression(parquet.Compression.ZSTD)
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

  /** Creates `path`'s temporary file and loads the writer (parquet-wasm and apache-arrow load only for Parquet). */
  static async open(path: string, schema: readonly Column[], options: ParquetFileOptions): Promise<ParquetFile> {
    const [arrow, parquet] = await Promise.all([import("apache-arrow"), import("parquet-wasm")]);
    return new ParquetFile(new OutputFile(path), schema, arrow, parquet, options);
  }

  get path(): string {
    return this.file.path;
  }

  /** The rows of cells in bytes[start, end), in order (a RowSink). */
  write(bytes: Uint8Array, start: number, end: number): void {
    if (this.failure !== null) throw this.failed();
    this.cells.add(bytes, start, end);
  }

  /** Writes the last row group and the footer with `summary` in its room, then gives the file its name. */
  async commit(summary: string): Promise<void> {
    this.cells.flush();
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

  /** One row group: the batch's columns as an Arrow record batch, handed to the writer through Arrow IPC. */
  private encode(batch: readonly ColumnValues[], rows: number): void {
    const arrow = this.arrow;
    const children = batch.map((column, i) => {
      const type = this.fields[i].type;
      switch (column.type) {
        case "string":
          return arrow.makeData({ type, length: rows, valueOffsets: column.offsets, data: column.bytes });
        case "list": {
          const values = arrow.makeData({ type: new arrow.Int64(), length: column.values.length, data: column.values });
          return arrow.makeData({ type, length: rows, valueOffsets: column.offsets, child: values });
        }
        default:
          return arrow.makeData({ type, length: rows, data: column.values });
      }
    });
    const struct = arrow.makeData({ type: new arrow.Struct(this.fields), length: rows, children });
    const ipc = arrow.tableToIPC(
      new arrow.Table(new arrow.RecordBatch(new arrow.Schema(this.fields), struct)),
      "stream",
    );
    const table = this.parquet.Table.fromIPCStream(ipc);
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

function arrowType(arrow: typeof Arrow, column: Column): Arrow.DataType {
  switch (column.type) {
    case "int":
      return new arrow.Int64();
    case "real":
      return new arrow.Float64();
    case "time":
      return new arrow.TimestampNanosecond("UTC");
    case "string":
      return new arrow.Utf8();
    case "list":
      return new arrow.List(new arrow.Field("element", new arrow.Int64(), false));
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
