// Streams a capture file (gzip-compressed or not) packet by packet through engine/input's cursor, waiting for each
// packet's write (back-pressure), with progress and cancellation.
import type { CaptureDamage, CapturedPacket, CaptureInfo } from "@tracemill/core";
import { TracemillError } from "@tracemill/core";
import { type CaptureCursor, openCaptureCursor, withFileName } from "../input/index.js";

// 1 MiB: larger reads save no measurable time, and every megabyte a process touches first costs page faults.
const readBytes = 1024 * 1024;

export interface StreamOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** What a packet's callback may ask of the capture it comes from: its facts, the packet's pcapng comments. */
export type PacketOrigin = Pick<CaptureCursor, "info" | "packetComments">;

/**
 * Calls `onPacket` for every packet; when it returns a promise (output back-pressure) reading waits for it.
 * A capture damaged part-way (a cut or damaged gzip stream included) stops at the damage, which the result names
 * (the packets before it were delivered); one that cannot be read at all rejects. Plain files are read on this
 * thread (Suricata has just read the same bytes into the page cache).
 */
export async function forEachPacket(
  file: string,
  options: StreamOptions,
  onPacket: (packet: CapturedPacket, origin: PacketOrigin) => Promise<void> | undefined,
  /** Called once the packets of a chunk are all delivered, before its bytes are reused (also at the end). */
  afterChunk?: () => Promise<void> | undefined,
): Promise<{ packets: number; info: CaptureInfo; damage?: CaptureDamage }> {
  const cursor = await openCaptureCursor(file, { chunkBytes: readBytes, synchronous: true });
  let lastReport = 0;
  try {
    for (;;) {
      for (let wait = deliver(cursor, onPacket); wait; wait = deliver(cursor, onPacket)) await wait;
      await afterChunk?.();
      if (cursor.done) break;
      if (options.signal?.aborted) throw new TracemillError("CANCELLED", "sanitization was cancelled");
      if (options.onProgress && cursor.bytesRead - lastReport > 16 * 1024 * 1024) {
        lastReport = cursor.bytesRead;
        options.onProgress(cursor.fileSize > 0 ? cursor.bytesRead / cursor.fileSize : 1);
      }
      if (!(await cursor.fill())) break;
    }
    const damage = cursor.damage;
    return { packets: cursor.packetCount, info: cursor.info, ...(damage ? { damage } : {}) };
  } catch (error) {
    throw withFileName(error, file);
  } finally {
    await cursor.close();
  }
}

/**
 * Delivers the chunk's packets until one's callback returns a promise (returned) or the chunk ends (undefined). The
 * per-packet loop in a function of its own is compiled once, as it is: within the async caller, code first run after
 * the first chunk (progress, the next read) would send it back to be compiled again.
 */
function deliver(
  cursor: CaptureCursor,
  onPacket: (packet: CapturedPacket, origin: PacketOrigin) => Promise<void> | undefined,
): Promise<void> | undefined {
  for (let packet = cursor.next(); packet !== null; packet = cursor.next()) {
    const wait = onPacket(packet, cursor);
    if (wait) return wait;
  }
  return undefined;
}
