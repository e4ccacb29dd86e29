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
const PLAIN_CHUNK_BYTES = 4 << 20;

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
  const consume = (bytes: Uint8Array, consumed: number): boolean => {
    if (source === undefined) {
      try {
        source = openPacketSource(bytes);
      } catch (error) {
        throw named(file, error);
      }
    } else source.push(bytes);
    drain();
    if (damage !== null) return false;
    run.onProgress?.({ percent: stat.size > 0 ? (100 * consumed) / stat.size : 100, stage: "reading capture" });
    run.onPackets?.(source.packetCount);
    return true;
  };
  if (await startsWithGzipMagic(file)) {
    const compressionDamage = await readCompressed(file, consume, run.signal, () => source?.consumedBytes);
    if (compressionDamage !== null) damage = compressionDamage;
  } else {
    await readPlain(file, consume, run.signal);
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

/**
 * Reads with synchronous reads into two alternating 4 MiB buffers (the reader is done with a chunk once it has
 * returned every packet of it, and keeps a copy of a record that spans chunks): no wait on the thread pool between
 * chunks. The event loop gets a turn after every chunk, so an abort is seen.
 */
async function readPlain(
  file: string,
  consume: (bytes: Uint8Array, consumed: number) => boolean,
  signal: AbortSignal | undefined,
): Promise<void> {
  const fd = fs.openSync(file, "r");
  try {
    const buffers = [new Uint8Array(PLAIN_CHUNK_BYTES), new Uint8Array(PLAIN_CHUNK_BYTES)];
    let consumed = 0;
    for (let turn = 0; ; turn ^= 1) {
      if (signal?.aborted) throw new TracemillError("CANCELLED", "the run was cancelled", { file });
      const length = fs.readSync(fd, buffers[turn], 0, PLAIN_CHUNK_BYTES, null);
      if (length === 0) return;
      consumed += length;
      if (!consume(buffers[turn].subarray(0, length), consumed)) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Streams through gunzip; corrupt compressed data is damage after the packets already read. */
async function readCompressed(
  file: string,
  consume: (bytes: Uint8Array, consumed: number) => boolean,
  signal: AbortSignal | undefined,
  consumedBytes: () => number | undefined,
): Promise<CaptureDamage | null> {
  const raw = fs.createReadStream(file, { highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of raw.pipe(createGunzip({ chunkSize: CHUNK_BYTES }))) {
      if (signal?.aborted) throw new TracemillError("CANCELLED", "the run was cancelled", { file });
      if (!consume(chunk as Buffer, raw.bytesRead)) return null;
    }
    return null;
  } catch (error) {
    if (isTracemillError(error)) throw error;
    const offset = consumedBytes();
    if (offset === undefined) throw new TracemillError("BAD_INPUT", `${file}: ${(error as Error).message}`, { file });
    return { offset, message: `compressed data damaged: ${(error as Error).message}` };
  } finally {
    raw.destroy();
  }
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
