// Public surface of engine/input, the one way the capabilities read a capture: plain, gzip-compressed or a pipe,
// pushed packet by packet or pulled through a cursor, damage part-way reported (or thrown, as a cursor's option).
//
//   const result = await readCapture("in.pcapng.gz", (packet, source) => { … }, { onProgress, signal });
//   if (!result.complete) console.warn(result.damage!.message);   // damaged part-way: packets before it were read
//
//   const cursor = await openCaptureCursor("a.pcap", { damage: "throw" }); // sync next(), async fill()
//   await gunzipToFile("up.pcap.gz", "up.pcap", { name: "up.pcap.gz", signal }); // bounded, errors name the file
export { CaptureCursor, type CaptureCursorOptions, openCaptureCursor } from "./capture-cursor.js";
export {
  CaptureInput,
  CHUNKS_PER_TURN,
  type ChunkTap,
  DEFAULT_CHUNK_BYTES,
  yieldToEventLoop,
} from "./capture-input.js";
export { gunzipToFile, INFLATE_LIMITS, type InflateLimits, namedFault } from "./gunzip.js";
export { withFileName } from "./opened-source.js";
export {
  type CaptureTime,
  PacketStats,
  type ReadCaptureOptions,
  type ReadCaptureResult,
  readCapture,
} from "./read-capture.js";
