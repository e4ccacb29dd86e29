// Public surface of engine/capture: stream a capture file through the core readers, pull packets from several
// inputs, and write pcap/pcapng files atomically.
//
//   const result = await readCapture("in.pcapng.gz", (packet, source) => { … }, { onProgress, signal });
//   if (!result.complete) console.warn(result.damage!.message);   // damaged part-way: packets before it were read
//
//   const cursor = await openCaptureCursor("a.pcap");               // sync next(), async fill()
//   const out = await openCaptureWriter("out.pcapng", { format: "pcapng", interfaces });
//   await gunzipToFile("up.pcap.gz", "up.pcap", { name: "up.pcap.gz", signal }); // bounded, errors name the file
//   if (!out.write(packet)) await out.drain();  …  await out.close(); // or out.abort()
export { CaptureCursor, type CaptureCursorOptions, openCaptureCursor } from "./capture-cursor.js";
export { CaptureInput, type ChunkTap, DEFAULT_CHUNK_BYTES, yieldToEventLoop } from "./capture-input.js";
export { type CaptureSummary, isoTime, summarizeCapture } from "./capture-summary.js";
export { CaptureFileWriter, type CaptureWriterOptions, openCaptureWriter } from "./capture-writer.js";
export { gunzipToFile, INFLATE_LIMITS, type InflateLimits } from "./gunzip.js";
export {
  type CaptureTime,
  PacketStats,
  type ReadCaptureOptions,
  type ReadCaptureResult,
  readCapture,
} from "./read-capture.js";
