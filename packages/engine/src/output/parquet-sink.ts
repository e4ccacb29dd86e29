// Where a run's Parquet rows go: a file written on a thread of its own when the process may use more than one core
// (the pass and the encoding overlap), else on the caller's thread (a second thread would only take turns with it).
import os from "node:os";
import type { Column } from "@tracemill/core";
import { ParquetFile, type ParquetFileOptions } from "./parquet-file.js";
import { ParquetThreadFile } from "./parquet-thread.js";

/** ParquetFile's surface, which ParquetThreadFile shares. */
export interface ParquetSink {
  readonly path: string;
  write(bytes: Uint8Array, start: number, end: number): void;
  caughtUp(): Promise<void>;
  commit(summary: string): Promise<void>;
  discard(): Promise<void>;
}

export interface OpenParquetOptions extends ParquetFileOptions {
  /** Encode on a thread of its own (default: when the process may use more than one core). */
  thread?: boolean;
}

export function openParquetFile(
  path: string,
  schema: readonly Column[],
  options: OpenParquetOptions,
): Promise<ParquetSink> {
  const { thread = os.availableParallelism() > 1, ...fileOptions } = options;
  return thread ? ParquetThreadFile.open(path, schema, fileOptions) : ParquetFile.open(path, schema, fileOptions);
}
