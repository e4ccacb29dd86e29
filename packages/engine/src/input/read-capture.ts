// Streams a capture file through the matching core reader, calling back synchronously for every packet.
import os from "node:os";
import type { CaptureDamage, CapturedPacket, CaptureFormat, CaptureInfo, PacketSource } from "@tracemill/core/capture";
import { TracemillError } from "@tracemill/core/errors";
import { CaptureInput, CHUNKS_PER_TURN, type ChunkTap, yieldToEventLoop } from "./capture-input.js";
import { damageOf, openSource, readChunk } from "./opened-source.js";

export interface ReadCaptureOptions {
  signal?: AbortSignal;
  /** Called after every chunk with the file bytes read so far and the file size (compressed sizes for .gz). */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Bytes read from disk at a time; default 1 MiB (DEFAULT_CHUNK_BYTES). */
  chunkBytes?: number;
  /** Gets the file's bytes as read (see CaptureInputOptions.tap). */
  tap?: ChunkTap;
  /**
   * Read the next chunk of a plain file on libuv's pool while this one is parsed, or (false) read each chunk on this
   * thread when it is needed (CaptureInputOptions.synchronous), giving the event loop a turn every few chunks.
   * Default: read ahead when the process may run on more than one core. On one core the pool's thread only takes
   * turns with this one, and the bytes it read have left the cache by the time they are parsed; on two, reading ahead
   * keeps the kernel's copy off this thread (bench/extract, docs/performance.md).
   */
  readAhead?: boolean;
}

export interface CaptureTime {
  tsSec: number;
  tsNsec: number;
}

export interface ReadCaptureResult {
  file: string;
  format: CaptureFormat;
  /** The file was gzip-compressed. */
  compressed: boolean;
  /** Size of the input as stored (compressed for gzip); for a pipe, every byte it gave, read to its end. */
  fileBytes: number;
  info: CaptureInfo;
  packets: number;
  /** Sum of the packets' original (wire) lengths, as capinfos' "data size". */
  bytes: number;
  /** Sum of the captured lengths. */
  capturedBytes: number;
  /** Earliest and latest timestamp (not the first and last packet's: files are not always in time order). */
  first: CaptureTime | null;
  last: CaptureTime | null;
  /** False when reading stopped at damage: `damage` says where and why. */
  complete: boolean;
  damage?: CaptureDamage;
}

/**
 * Reads every packet of `file` and calls onPacket(packet, source) for each, synchronously; the packet is reused
 * (see PacketSource). A damaged file resolves with complete: false and the damage after delivering the packets
 * before it; it rejects (BAD_INPUT, NOT_FOUND, CANCELLED) only when nothing could be read or the run was aborted.
 */
export async function readCapture(
  file: string,
  onPacket: (packet: CapturedPacket, source: PacketSource) => void,
  options: ReadCaptureOptions = {},
): Promise<ReadCaptureResult> {
  const synchronous = !(options.readAhead ?? os.availableParallelism() > 1);
  const input = await CaptureInput.open(file, options.chunkBytes, { tap: options.tap, synchronous });
  let chunks = 0;
  try {
    const { source, first } = await openSource(input, file);
    const stats = new PacketStats();
    let damage: CaptureDamage | undefined;
    let chunk: Uint8Array | null = first;
    try {
      for (;;) {
        for (let packet = source.next(); packet !== null; packet = source.next()) {
          stats.add(packet);
          onPacket(packet, source);
        }
        if (source.done) break;
        options.onProgress?.(input.fileBytesRead, input.fileSize);
        if (options.signal?.aborted) throw new TracemillError("CANCELLED", `${file}: reading was cancelled`, { file });
        if (synchronous && ++chunks % CHUNKS_PER_TURN === 0) await yieldToEventLoop();
        chunk = chunk === null ? null : await readChunk(input, file, source);
        if (chunk === null) source.end();
        else source.push(chunk);
      }
    } catch (error) {
      damage = damageOf(error, file, source);
    }
    await input.drain(options.signal);
    return {
      file,
      format: source.info.format,
      compressed: input.compressed,
      fileBytes: input.streamed ? input.fileBytesRead : input.fileSize,
      info: source.info,
      packets: stats.packets,
      bytes: stats.bytes,
      capturedBytes: stats.capturedBytes,
      first: stats.first,
      last: stats.last,
      complete: damage === undefined,
      ...(damage ? { damage } : {}),
    };
  } finally {
    await input.close();
  }
}

/** Running totals over the packets of one read. */
export class PacketStats {
  packets = 0;
  bytes = 0;
  capturedBytes = 0;
  first: CaptureTime | null = null;
  last: CaptureTime | null = null;

  add(p: CapturedPacket): void {
    this.packets++;
    this.bytes += p.originalLength;
    this.capturedBytes += p.capturedLength;
    const { tsSec, tsNsec } = p;
    if (this.first === null) {
      this.first = { tsSec, tsNsec };
      this.last = { tsSec, tsNsec };
      return;
    }
    if (tsSec < this.first.tsSec || (tsSec === this.first.tsSec && tsNsec < this.first.tsNsec)) {
      this.first.tsSec = tsSec;
      this.first.tsNsec = tsNsec;
    }
    const last = this.last!;
    if (tsSec > last.tsSec || (tsSec === last.tsSec && tsNsec > last.tsNsec)) {
      last.tsSec = tsSec;
      last.tsNsec = tsNsec;
    }
  }
}
