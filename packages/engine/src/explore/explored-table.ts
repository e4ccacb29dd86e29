// An output table (CSV or Parquet) opened for the feature explorer over its cache directory: what it holds, and any
// column by name, read from the cache when it is there. A CSV is read whole into the cache the first time; a Parquet
// file lists its columns from its footer and reads each column the first time it is asked for.
import fs from "node:fs";
import { type ColumnData, type ColumnDescription, type DescribeOptions, describeColumn } from "@tracemill/core";
import { buildCsvCache } from "./csv-table.js";
import { openParquetTable, type ParquetTable } from "./parquet-table.js";
import { buildWhole, readColumn, readTableInfo, type TableInfo, writeColumn, writeTableInfo } from "./table-cache.js";

export interface ExploredTable {
  readonly info: TableInfo;
  /** The first column called `name`, or null when the table has none. */
  column(name: string): Promise<ColumnData | null>;
}

const PARQUET_MAGIC = "PAR1";

async function isParquet(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.toString("latin1") === PARQUET_MAGIC;
  } finally {
    await handle.close();
  }
}

/**
 * Opens `file` with its cache in `cacheDir` (made when missing; the caller removes it with the file). `label` names
 * the file in messages. The format is the file's own (Parquet's magic bytes), not its name's.
 */
export async function openExploredTable(file: string, cacheDir: string, label: string): Promise<ExploredTable> {
  if (await isParquet(file)) return openParquet(file, cacheDir, label);
  let info = await readTableInfo(cacheDir);
  if (info === null) {
    await buildCsvCache(file, cacheDir, label);
    info = await readTableInfo(cacheDir);
    if (info === null) throw new Error(`${label}: the explorer's cache was not written`);
  }
  const known = info;
  return {
    info: known,
    async column(name) {
      const index = known.columns.findIndex((column) => column.name === name);
      return index < 0 ? null : readColumn(cacheDir, index, known.columns[index].type);
    },
  };
}

async function openParquet(file: string, cacheDir: string, label: string): Promise<ExploredTable> {
  let table: Promise<ParquetTable> | null = null;
  const opened = () => {
    table ??= openParquetTable(file, label);
    return table;
  };
  let info = await readTableInfo(cacheDir);
  if (info === null) {
    const { rows, columns } = await opened();
    const seen = new Set<string>();
    const problems = columns.flatMap(({ name }) => {
      const twice = seen.has(name);
      seen.add(name);
      return twice ? [`${label}: the column name "${name}" is given twice; the first is explored`] : [];
    });
    const made: TableInfo = { format: "parquet", rows, columns, problems };
    await buildWhole(cacheDir, (temporary) => writeTableInfo(temporary, made));
    info = made;
  }
  const known = info;
  return {
    info: known,
    async column(name) {
      const index = known.columns.findIndex((column) => column.name === name);
      if (index < 0) return null;
      const cached = await readColumn(cacheDir, index, known.columns[index].type);
      if (cached) return cached;
      const column = await (await opened()).read(index);
      // The cache only saves the next read: a column that cannot be stored (the job just deleted) is still answered.
      await writeColumn(cacheDir, index, column).catch(() => undefined);
      return column;
    },
  };
}

export interface ExploreOptions extends Omit<DescribeOptions, "by"> {
  /** Split the counts by the values of this column (a label or class column of the same table). */
  by?: string;
}

/** One column described over every row (core's describeColumn); null when the table has no such column. */
export async function exploreColumn(
  table: ExploredTable,
  name: string,
  options: ExploreOptions = {},
): Promise<ColumnDescription | null> {
  const [column, by] = await Promise.all([
    table.column(name),
    options.by === undefined ? null : table.column(options.by),
  ]);
  if (column === null) return null;
  return describeColumn(column, {
    bins: options.bins,
    scale: options.scale,
    by: by === null || options.by === undefined ? undefined : { name: options.by, column: by },
  });
}
