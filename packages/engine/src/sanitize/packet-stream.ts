// Streams a capture file (gzip-compressed or not) through the core reader, one packet at a time, with cancellation.
import {
  type CaptureDamage,
  type CapturedPacket,
  type CaptureInfo,
  isTracemillError,
  openPacketSource,
  type PacketSource,
  TracemillError,
} from "@tracemill/core";
import { CaptureInput } from "../capture/capture-input.js";
import { readChunk, readFirstChunk, withFile, withFileName } from "../capture/read-capture.js";

// 1 MiB: larger reads save no measurable time, and every megabyte a process touches first costs page faults.
const readBytes = 1024 * 1024;

export interface StreamOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Calls `onPacket` for every packet; when it returns a promise (output back-pressure) reading waits for it.
 * A capture damaged part-way (a cut or damaged gzip stream included) stops at the damage, which the result names
 * (the packets before it were delivered); one that cannot be read at all rejects. Plain files are read on this
 * thread (Suricata has just read the same bytes into the page cache), gzip through engine/capture's one gunzip.
 */
export async function forEachPacket(
  file: string,
  options: StreamOptions,
  onPacket: (packet: CapturedPacket, source: PacketSource) => Promise<void> | undefined,
  /** Called once the packets of a chunk are all delivered, before its bytes are reused (also at the end). */
  afterChunk?: () => Promise<void> | undefined,
): Promise<{ packets: number; info: CaptureInfo; damage?: CaptureDamage }> {
  const input = await CaptureInput.open(file, readBytes, { synchronous: true });
  let source: PacketSource | undefined;
  let lastReport = 0;
  try {
    const first = await readFirstChunk(input, file);
    const opened = withFile(file, () => openPacketSource(first ?? new Uint8Array(0)));
    source = opened;
    for (;;) {
      await drain(opened, onPacket);
      await afterChunk?.();
      if (opened.done) break;
      if (options.signal?.aborted) throw new TracemillError("CANCELLED", "sanitization was cancelled");
      if (options.onProgress && input.fileBytesRead - lastReport > 16 * 1024 * 1024) {
        lastReport = input.fileBytesRead;
        options.onProgress(input.fileSize > 0 ? input.fileBytesRead / input.fileSize : 1);
      }
      const chunk = await readChunk(input, file, opened);
      if (chunk === null) opened.end();
      else opened.push(chunk);
    }
    return { packets: opened.packetCount, info: opened.info };
  } catch (error) {
    if (isTracemillError(error) && error.code === "DAMAGED_INPUT" && source !== undefined) {
      const named = withFileName(error, file) as TracemillError;
      const offset = named.context.offset ?? source.consumedBytes;
      return { packets: source.packetCount, info: source.info, damage: { offset, message: named.message } };
    }
    throw withFileName(error, file);
  } finally {
    await input.close();
  }
}

async function drain(
  source: PacketSource,
  onPacket: (packet: CapturedPacket, source: PacketSource) => Promise<void> | undefined,
): Promise<void> {
  for (let packet = source.next(); packet; packet = source.next()) {
    const wait = onPacket(packet, source);
    if (wait) await wait;
  }
}
