// Streams a capture file (gzip-compressed or not) through the core reader, one packet at a time, with cancellation.
import fs from "node:fs";
import zlib from "node:zlib";
import {
  type CaptureDamage,
  type CapturedPacket,
  type CaptureInfo,
  openPacketSource,
  type PacketSource,
  TracemillError,
} from "@tracemill/core";

export interface StreamOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Calls `onPacket` for every packet; when it returns a promise (output back-pressure) reading waits for it.
 * A capture damaged part-way stops at the damage, which the result names (the packets before it were delivered);
 * one that cannot be read at all rejects.
 */
export async function forEachPacket(
  file: string,
  options: StreamOptions,
  onPacket: (packet: CapturedPacket, source: PacketSource) => Promise<void> | undefined,
): Promise<{ packets: number; info: CaptureInfo; damage?: CaptureDamage }> {
  const size = fs.statSync(file).size;
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, "r");
  fs.readSync(fd, head, 0, 2, 0);
  fs.closeSync(fd);
  const raw = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const input = gzip ? raw.pipe(zlib.createGunzip()) : raw;
  let source: PacketSource | undefined;
  let lastReport = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) throw new TracemillError("CANCELLED", "sanitization was cancelled");
      if (source) source.push(chunk);
      else source = openPacketSource(chunk);
      await drain(source, onPacket);
      if (options.onProgress && raw.bytesRead - lastReport > 16 * 1024 * 1024) {
        lastReport = raw.bytesRead;
        options.onProgress(size > 0 ? raw.bytesRead / size : 1);
      }
    }
    if (!source) throw new TracemillError("BAD_INPUT", `${file}: the file is empty (0 bytes): not a capture`, { file });
    source.end();
    await drain(source, onPacket);
    return { packets: source.packetCount, info: source.info };
  } catch (error) {
    if (error instanceof TracemillError && error.code === "DAMAGED_INPUT" && source?.damage) {
      return { packets: source.packetCount, info: source.info, damage: source.damage };
    }
    if (error instanceof TracemillError && !error.context.file) {
      throw new TracemillError(error.code, `${file}: ${error.message}`, { ...error.context, file });
    }
    throw error;
  } finally {
    raw.destroy();
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
