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

// 1 MiB: larger reads save no measurable time, and every megabyte a process touches first costs page faults.
const readBytes = 1024 * 1024;

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
  /** Called once the packets of a chunk are all delivered, before its bytes are reused (also at the end). */
  afterChunk?: () => Promise<void> | undefined,
): Promise<{ packets: number; info: CaptureInfo; damage?: CaptureDamage }> {
  const size = fs.statSync(file).size;
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, "r");
  fs.readSync(fd, head, 0, 2, 0);
  fs.closeSync(fd);
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const raw = gzip ? fs.createReadStream(file, { highWaterMark: 1024 * 1024 }) : undefined;
  const chunks = raw ? (raw.pipe(zlib.createGunzip()) as AsyncIterable<Buffer>) : plainChunks(file);
  let bytesRead = 0;
  let source: PacketSource | undefined;
  let lastReport = 0;
  try {
    for await (const chunk of chunks) {
      if (options.signal?.aborted) throw new TracemillError("CANCELLED", "sanitization was cancelled");
      if (source) source.push(chunk);
      else source = openPacketSource(chunk);
      await drain(source, onPacket);
      await afterChunk?.();
      bytesRead = raw ? raw.bytesRead : bytesRead + chunk.length;
      if (options.onProgress && bytesRead - lastReport > 16 * 1024 * 1024) {
        lastReport = bytesRead;
        options.onProgress(size > 0 ? bytesRead / size : 1);
      }
    }
    if (!source) throw new TracemillError("BAD_INPUT", `${file}: the file is empty (0 bytes): not a capture`, { file });
    source.end();
    await drain(source, onPacket);
    await afterChunk?.();
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
    raw?.destroy();
  }
}

/**
 * The bytes of an uncompressed file in two alternating buffers: a chunk is only read again once the packet source
 * has delivered every packet in it (it copies what spans chunks), so no chunk is allocated per read.
 */
async function* plainChunks(file: string): AsyncGenerator<Uint8Array> {
  const handle = await fs.promises.open(file, "r");
  try {
    const buffers = [new Uint8Array(readBytes), new Uint8Array(readBytes)];
    let position = 0;
    for (let which = 0; ; which ^= 1) {
      // In place rather than on the thread pool (two thread switches per read): the split has nothing else to do
      // meanwhile, and Suricata has just read the same bytes into the page cache.
      const bytesRead = fs.readSync(handle.fd, buffers[which], 0, readBytes, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffers[which].subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
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
