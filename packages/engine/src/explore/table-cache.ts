// The explorer's cache of one output table: a directory with `table.json` (its columns, rows and oddities) and, per
// column read, its values as one binary file (doubles, or text codes) and a JSON sidecar (counts, or the distinct
// texts). A column is read once from its table and afterwards from here, whatever the bins or split asked for.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ColumnData, InvalidCell } from "@tracemill/core";

/** Bumped whenever the files below change meaning: a cache of another version is built again. */
export const CACHE_VERSION = 1;

export type TableFormat = "csv" | "parquet";

export interface TableColumnInfo {
  name: string;
  type: "numeric" | "text";
}

/** What the explorer lists of a table. */
export interface TableInfo {
  format: TableFormat;
  rows: number;
  columns: TableColumnInfo[];
  /** What is odd about the file (rows of the wrong length, an unclosed quote, a name given twice): one line each. */
  problems: string[];
}

interface CachedTable extends TableInfo {
  version: number;
}

/** A numeric column's sidecar; a text column's is its distinct values, the empty text first. */
export interface NumericSidecar {
  missing: number;
  invalid: number;
  firstInvalid: InvalidCell | null;
}

const TABLE_FILE = "table.json";
const valuesFile = (dir: string, index: number) => path.join(dir, `${index}.bin`);
const sidecarFile = (dir: string, index: number) => path.join(dir, `${index}.json`);

/** A name beside `target` that no other writer picks. */
export const temporaryName = (target: string) => `${target}.${crypto.randomBytes(6).toString("hex")}.partial`;

/** The table's description from its cache, or null when there is none (or one of another version). */
export async function readTableInfo(dir: string): Promise<TableInfo | null> {
  let cached: CachedTable;
  try {
    cached = JSON.parse(await fs.promises.readFile(path.join(dir, TABLE_FILE), "utf8")) as CachedTable;
  } catch {
    return null;
  }
  if (cached.version !== CACHE_VERSION) return null;
  const { version: _, ...info } = cached;
  return info;
}

export async function writeTableInfo(dir: string, info: TableInfo): Promise<void> {
  await writeWhole(path.join(dir, TABLE_FILE), JSON.stringify({ version: CACHE_VERSION, ...info }));
}

/**
 * Makes `dir` the cache at once: `build` fills a temporary directory beside it, which is renamed when complete.
 * When another process finished first, its cache is kept and this one dropped: both read the same immutable output.
 */
export async function buildWhole(dir: string, build: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = temporaryName(dir);
  await fs.promises.mkdir(temporary, { recursive: true });
  try {
    await build(temporary);
    await fs.promises.rm(dir, { recursive: true, force: true });
    await fs.promises.rename(temporary, dir);
  } catch (error) {
    await fs.promises.rm(temporary, { recursive: true, force: true });
    if ((await readTableInfo(dir)) === null) throw error;
  }
}

/** A file written under a temporary name and renamed: readers see it whole or not at all. */
async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryName(file);
  try {
    await fs.promises.writeFile(temporary, data);
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/** Appends values to a column's binary file (a cache being built, or a column read in parts). */
export async function appendValues(dir: string, index: number, values: Float64Array | Uint32Array): Promise<void> {
  await fs.promises.appendFile(
    valuesFile(dir, index),
    new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  );
}

/** The sidecar that completes a column written with appendValues. */
export async function finishColumn(dir: string, index: number, column: NumericSidecar | string[]): Promise<void> {
  await writeWhole(sidecarFile(dir, index), JSON.stringify(column));
}

/** Stores a column read whole (a Parquet column): values first, then the sidecar that says it is complete. */
export async function writeColumn(dir: string, index: number, column: ColumnData): Promise<void> {
  const values = column.type === "numeric" ? column.values : column.codes;
  await writeWhole(valuesFile(dir, index), new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  await finishColumn(
    dir,
    index,
    column.type === "numeric"
      ? { missing: column.missing, invalid: column.invalid, firstInvalid: column.firstInvalid }
      : [...column.dictionary],
  );
}

/** A column from the cache, or null when it has not been stored (yet). */
export async function readColumn(dir: string, index: number, type: "numeric" | "text"): Promise<ColumnData | null> {
  let sidecar: NumericSidecar | string[];
  try {
    sidecar = JSON.parse(await fs.promises.readFile(sidecarFile(dir, index), "utf8")) as NumericSidecar | string[];
  } catch {
    return null;
  }
  const bytes = await fs.promises.readFile(valuesFile(dir, index));
  // A typed array needs its start aligned to its element's size; a Buffer from the pool may not be.
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : Uint8Array.prototype.slice.call(bytes);
  if (type === "numeric") {
    const values = new Float64Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 8);
    return { type, values, ...(sidecar as NumericSidecar) };
  }
  const codes = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  return { type, codes, dictionary: sidecar as string[] };
}
