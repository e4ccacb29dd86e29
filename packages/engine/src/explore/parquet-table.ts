// A Parquet output as the explorer reads it: its columns and rows from the footer, and one column at a time, a row
// group and a batch at a time (parquet-wasm reads only that column's pages), so memory holds a batch of one column,
// never the file. The decoded batch is read where parquet-wasm left it (in-place-batch.ts), or for the rare formats
// Tracemill does not write, through Arrow IPC (ipc-batch.ts).
import fs from "node:fs";
import { type ColumnData, TracemillError } from "@tracemill/core";
import type * as ParquetWasm from "parquet-wasm";
import { readArray, readSchema } from "./arrow-c-data.js";
import { addInPlace, type ColumnFormat, columnFormat, isNumeric, readsInPlace } from "./in-place-batch.js";
import { addFromIpc, loadArrow } from "./ipc-batch.js";
import { ParquetColumn } from "./parquet-column.js";
import type { TableColumnInfo } from "./table-cache.js";

/**
 * Rows per batch parquet-wasm gives: the writer's batch size. A whole row group at once grew the WebAssembly memory
 * (which never shrinks) by a list column's row group and took longer.
 */
const BATCH_ROWS = 8192;

let parquetWasm: Promise<typeof ParquetWasm> | null = null;

export interface ParquetTable {
  rows: number;
  columns: TableColumnInfo[];
  /** Every value of the column at `index` of `columns`. */
  read(index: number): Promise<ColumnData>;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens `file` (named `label` in messages); a file parquet-wasm cannot read is BAD_INPUT naming it and why. */
export async function openParquetTable(file: string, label: string): Promise<ParquetTable> {
  // Loaded once per process, and only when a Parquet output is explored.
  parquetWasm ??= import("parquet-wasm");
  const parquet = await parquetWasm;
  const unreadable = (error: unknown) =>
    new TracemillError("BAD_INPUT", `${label}: not a Parquet file the explorer can read (${reason(error)})`, {
      file: label,
    });
  let handle: ParquetWasm.ParquetFile;
  let formats: ColumnFormat[];
  let rows: number;
  let rowGroups: number;
  try {
    handle = await parquet.ParquetFile.fromFile(await fs.openAsBlob(file));
    const exported = handle.schema().intoFFI();
    try {
      // Copied out: the exported schema's memory is freed below.
      const memory = parquet.wasmMemory().buffer;
      formats = readSchema(memory, exported.addr()).children.map((at) => columnFormat(memory, readSchema(memory, at)));
    } finally {
      exported.free();
    }
    const metadata = handle.metadata();
    rows = metadata.fileMetadata().numRows();
    rowGroups = metadata.numRowGroups();
  } catch (error) {
    throw unreadable(error);
  }
  const columns: TableColumnInfo[] = formats.map((format) => ({
    name: format.name,
    type: isNumeric(format) ? "numeric" : "text",
  }));
  return {
    rows,
    columns,
    async read(index: number): Promise<ColumnData> {
      const column = new ParquetColumn(columns[index].type, rows);
      const arrow = readsInPlace(formats[index]) ? null : await loadArrow();
      try {
        for (let group = 0; group < rowGroups; group++) {
          const options = { columns: [columns[index].name], rowGroups: [group], batchSize: BATCH_ROWS };
          const table = await handle.read(options);
          if (arrow !== null) {
            addFromIpc(column, arrow, table.intoIPCStream());
            continue;
          }
          for (const batch of table.recordBatches()) {
            const exported = batch.intoFFI();
            try {
              // Read before any other call into parquet-wasm, which may grow (and so move) its memory.
              const memory = parquet.wasmMemory().buffer;
              const array = readArray(memory, exported.arrayAddr());
              addInPlace(column, memory, array.children[0], formats[index]);
            } finally {
              exported.free();
            }
          }
          table.free();
        }
      } catch (error) {
        throw unreadable(error);
      }
      return column.done(label, columns[index].name);
    },
  };
}
