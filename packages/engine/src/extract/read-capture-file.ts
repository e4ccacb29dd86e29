// The capture read of the extract pass: engine/capture's readCapture, with progress as a capability reports it
// (percent of the file's bytes, packets read) and the file's size for the run summary.
import type { CaptureDamage, CapturedPacket, CaptureFormat } from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { type ChunkTap, readCapture } from "../capture/index.js";

/**
 * Progress and cancellation of a read; `onPackets` gets the packets read so far after every input chunk, `tap` the
 * file's bytes as read (FileDigest's, so the SHA-256 needs no second read).
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
  };
}
