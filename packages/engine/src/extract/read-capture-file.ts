// Streams a capture file (gzip-compressed or not) through the core readers, reporting damage instead of losing
// the packets before it.
import fs from "node:fs";
import { createGunzip } from "node:zlib";
import {
  type CaptureDamage,
  type CapturedPacket,
  type CaptureFormat,
  isTracemillError,
  openPacketSource,
  type PacketSource,
  TracemillError,
} from "@tracemill/core";
import type { RunOptions } from "../capability.js";

const CHUNK_BYTES = 1 << 20;

/** Progress and cancellation of a read; `onPackets` gets the packets read so far after every input chunk. */
export type ReadProgress = Pick<RunOptions, "onProgress" | "signal"> & { onPackets?: (read: number) => void };

export interface ReadResult {
  format: CaptureFormat;
  /** Size of the file as stored (compressed when it is gzip). */
  fileBytes: number;
  /** Packets delivered. */
  packets: number;
  /** False when reading stopped at damage; `damage` then says where and why. */
  complete: boolean;
  damage: CaptureDamage | null;
}

/**
 * Calls `onPacket` for every packet in file order (packet and bytes valid during the call only). A damaged file
 * ends the reading at the damage with `complete: false`; a file that is not a capture at all throws BAD_INPUT.
 */
export async function readCaptureFile(
  file: string,
  onPacket: (packet: CapturedPacket) => void,
  run: ReadProgress = {},
): Promise<ReadResult> {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (stat === undefined || !stat.isFile()) throw new TracemillError("NOT_FOUND", `${file}: no such file`, { file });
  const gzip = await startsWithGzipMagic(file);
  const raw = fs.createReadStream(file, { highWaterMark: CHUNK_BYTES });
  const stream = gzip ? raw.pipe(createGunzip({ chunkSize: CHUNK_BYTES })) : raw;
  let source: PacketSource | undefined;
  let damage: CaptureDamage | null = null;
  const drain = () => {
    try {
      for (let packet = source!.next(); packet !== null; packet = source!.next()) onPacket(packet);
    } catch (error) {
      if (isTracemillError(error) && error.code === "DAMAGED_INPUT" && source!.damage !== null) {
        damage = source!.damage;
        return;
      }
      throw named(file, error);
    }
  };
  try {
    for await (const chunk of stream) {
      if (run.signal?.aborted) throw new TracemillError("CANCELLED", "the run was cancelled", { file });
      const bytes = chunk as Buffer;
      if (source === undefined) {
        try {
          source = openPacketSource(bytes);
        } catch (error) {
          throw named(file, error);
        }
      } else source.push(bytes);
      drain();
      if (damage !== null) break;
      run.onProgress?.({ percent: stat.size > 0 ? (100 * raw.bytesRead) / stat.size : 100, stage: "reading capture" });
      run.onPackets?.(source.packetCount);
    }
  } catch (error) {
    if (isTracemillError(error)) throw error;
    // zlib: a truncated or corrupt gzip stream is damage after the packets already read.
    if (source === undefined) throw new TracemillError("BAD_INPUT", `${file}: ${(error as Error).message}`, { file });
    damage = { offset: source.consumedBytes, message: `compressed data damaged: ${(error as Error).message}` };
  } finally {
    raw.destroy();
  }
  if (source === undefined) throw new TracemillError("BAD_INPUT", `${file}: the file is empty (0 bytes)`, { file });
  if (damage === null) {
    source.end();
    drain();
  }
  return {
    format: source.info.format,
    fileBytes: stat.size,
    packets: source.packetCount,
    complete: damage === null,
    damage,
  };
}

async function startsWithGzipMagic(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, "r");
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** Reader errors carry the offset but not the file name the user gave. */
function named(file: string, error: unknown): unknown {
  if (isTracemillError(error) && error.context.file === undefined) {
    return new TracemillError(error.code, `${file}: ${error.message}`, { ...error.context, file });
  }
  return error;
}
