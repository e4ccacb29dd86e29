// A region of a file read at any position: a stored zip entry is read in place as one, and a CSV or text file whole.
import type fs from "node:fs";

/** Bytes `[start, start + length)` of a file. */
export interface FileRegion {
  start: number;
  length: number;
}

/** Reads `length` bytes at `position` (fewer at the file's end). */
export async function readAt(handle: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/** The largest read of regionChunks: a region of gigabytes streams through 1 MiB at a time. */
const REGION_CHUNK = 1024 * 1024;

/**
 * The bytes of a region from `from` (relative to its start; default 0) to its end in chunks, the first of `first`
 * bytes (default REGION_CHUNK), each next one twice as large up to REGION_CHUNK: a reader that wants a few rows reads
 * little. Ends early, with no error, where the file ends first.
 */
export async function* regionChunks(
  handle: fs.promises.FileHandle,
  region: FileRegion,
  options: { from?: number; first?: number } = {},
): AsyncGenerator<Buffer> {
  let size = options.first ?? REGION_CHUNK;
  for (let at = options.from ?? 0; at < region.length; ) {
    const chunk = await readAt(handle, region.start + at, Math.min(size, region.length - at));
    if (chunk.length === 0) return;
    yield chunk;
    at += chunk.length;
    size = Math.min(size * 2, REGION_CHUNK);
  }
}
