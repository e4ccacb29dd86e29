// Public surface of engine/output: files written whole or not at all (a temporary name, renamed when complete).
//
//   const out = await openCaptureWriter("out.pcapng", { format: "pcapng", interfaces });
//   if (!out.write(packet)) await out.drain();  …  await out.close(); // or out.abort()
export { CaptureFileWriter, type CaptureWriterOptions, openCaptureWriter } from "./capture-writer.js";
export { FileRowSpill, ROW_MEMORY_BYTES } from "./file-row-spill.js";
export { OutputFile, type OutputFileOptions, outputError } from "./output-file.js";
export {
  PARQUET_ROW_GROUP_ROWS,
  ParquetFile,
  type ParquetFileOptions,
  SUMMARY_METADATA_KEY,
} from "./parquet-file.js";
export { type OpenParquetOptions, openParquetFile, type ParquetSink } from "./parquet-sink.js";
export { ParquetThreadFile } from "./parquet-thread.js";
export { SUMMARY_FILE, writeSummary } from "./summary-file.js";
export { ZipWriter } from "./zip-writer.js";
