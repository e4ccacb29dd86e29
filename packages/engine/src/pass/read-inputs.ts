// The pass's read of its inputs: engine/input's readCapture over each in turn, with progress as a capability reports
// it (percent of the inputs' bytes, packets read) and each input's size for the run summary.
import fs from "node:fs";
import type { CaptureDamage, CapturedPacket, CaptureFormat, CaptureWarning } from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { type ChunkTap, readCapture } from "../input/index.js";

/**
 * Progress and cancellation of a read; `onPackets` gets the packets read so far after every input chunk, `tap` the
 * file's bytes as read (InputDigests', so the SHA-256 needs no second read).
 */
export type ReadProgress = Pick<RunOptions, "onProgress" | "signal"> & {
  onPackets?: (read: number) => void;
  tap?: ChunkTap;
};

export interface ReadResult {
  format: CaptureFormat;
  /** Size of the file as stored (compressed when it is gzip); for a pipe, the bytes it gave. */
  fileBytes: number;
  /** Packets delivered. */
  packets: number;
  /** False when reading stopped at damage; `damage` then says where and why. */
  complete: boolean;
  damage: CaptureDamage | null;
  /** What the reader read past without stopping (carried timestamps, no packets at all). */
  warnings: CaptureWarning[];
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
  const { onProgress, onPackets } = run;
  let packets = 0;
  const result = await readCapture(
    file,
    onPackets === undefined
      ? onPacket
      : (packet) => {
          packets++;
          onPacket(packet);
        },
    {
      signal: run.signal,
      tap: run.tap,
      onProgress(bytesRead, totalBytes) {
        // A pipe's size is unknown until its end: 0 % until then.
        onProgress?.({ percent: totalBytes > 0 ? (100 * bytesRead) / totalBytes : 0, stage: "reading capture" });
        onPackets?.(packets);
      },
    },
  );
  return {
    format: result.format,
    fileBytes: result.fileBytes,
    packets: result.packets,
    complete: result.complete,
    damage: result.damage ?? null,
    warnings: result.info.warnings,
  };
}

/**
 * Called before input `index` is read, with `base`, the number of packets in the inputs before it (so that
 * `base + packet.index` counts on over all inputs): may give the input a tap and a step awaited once it is read
 * (its digest's result, say).
 */
export type EachInput = (index: number, base: number) => { tap?: ChunkTap; finished?(): Promise<void> } | undefined;

/**
 * Reads `inputs` one after another as one capture (the parts of a split capture), calling `onPacket` for every
 * packet as readCaptureFile does. Progress runs over all inputs by bytes (a pipe's size is unknown: it counts for
 * nothing until read), and `onPackets` counts on; a damaged input keeps its packets before the damage and the next
 * input is read all the same. `run.tap` serves a single input that `eachInput` gives none. Returns each input's
 * read.
 */
export async function readCaptureFiles(
  inputs: readonly string[],
  onPacket: (packet: CapturedPacket) => void,
  run: ReadProgress & { eachInput?: EachInput } = {},
): Promise<ReadResult[]> {
  const sizes = inputs.map((file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return stat?.isFile() ? stat.size : 0;
  });
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const files: ReadResult[] = [];
  let before = 0;
  let base = 0;
  for (let i = 0; i < inputs.length; i++) {
    const { onProgress, onPackets } = run;
    const each = run.eachInput?.(i, base);
    const first = base;
    const read = await readCaptureFile(inputs[i], onPacket, {
      ...run,
      tap: each?.tap ?? (inputs.length === 1 ? run.tap : undefined),
      onProgress:
        onProgress &&
        (inputs.length === 1
          ? onProgress
          : ({ percent, stage }) =>
              onProgress({ percent: total > 0 ? (100 * (before + (percent / 100) * sizes[i])) / total : 0, stage })),
      onPackets: onPackets && ((packets) => onPackets(first + packets)),
    });
    await each?.finished?.();
    files.push(read);
    before += sizes[i];
    base += read.packets;
  }
  return files;
}
