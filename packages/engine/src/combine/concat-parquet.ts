// Joins Parquet files of one schema into one, a row group at a time (never a whole file in memory), with the given
// run summary in the footer's key-value metadata as every Tracemill Parquet file has it (docs/formats.md).
import fs from "node:fs";
import { TracemillError } from "@tracemill/core";
import type * as ParquetWasm from "parquet-wasm";
import { OutputFile, PARQUET_ROW_GROUP_ROWS, SUMMARY_METADATA_KEY } from "../output/index.js";

export interface ParquetConcatOptions {
  summary: string;
  createdBy: string;
  signal?: AbortSignal;
  /** Called with the row groups copied so far and their total. */
  onRowGroups?: (done: number, total: number) => void;
}

export async function concatParquet(
  sources: readonly string[],
  target: string,
  options: ParquetConcatOptions,
): Promise<void> {
  const parquet: typeof ParquetWasm = await import("parquet-wasm");
  const files = await Promise.all(
    sources.map(async (source) => {
      try {
        return await parquet.ParquetFile.fromFile(await fs.openAsBlob(source));
      } catch (error) {
        throw new TracemillError("BAD_INPUT", `${source}: not a readable Parquet file (${String(error)})`, {
          file: source,
        });
      }
    }),
  );
  const total = files.reduce((sum, file) => sum + file.metadata().numRowGroups(), 0);
  const properties = new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.ZSTD)
    .setMaxRowGroupSize(PARQUET_ROW_GROUP_ROWS)
    .setStatisticsEnabled(parquet.EnabledStatistics.Chunk)
    .setCreatedBy(options.createdBy)
    .setKeyValueMetadata(new Map([[SUMMARY_METADATA_KEY, options.summary]]))
    .build();
  let done = 0;
  const batches = new ReadableStream<ParquetWasm.RecordBatch>({
    async start(controller) {
      for (const file of files) {
        const groups = file.metadata().numRowGroups();
        for (let group = 0; group < groups; group++) {
          options.signal?.throwIfAborted();
          const table = await file.read({ rowGroups: [group] });
          for (const batch of table.recordBatches()) controller.enqueue(batch);
          table.free();
          options.onRowGroups?.(++done, total);
        }
      }
      controller.close();
    },
  });
  const out = new OutputFile(target);
  try {
    const reader = (await parquet.transformParquetStream(batches, properties)).getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      out.write(value);
    }
    await out.commit();
  } catch (error) {
    await out.discard();
    throw error;
  } finally {
    for (const file of files) file.free();
  }
}
