// Streams a capture file's packets through the core readers (format sniffed from the content), chunk by chunk.
import fs from "node:fs";
import { type CapturedPacket, openPacketSource, type PacketSource, TracemillError } from "@tracemill/core";
import type { RunOptions } from "../capability.js";

const CHUNK_BYTES = 1 << 20;

/**
 * Calls `onPacket` for every packet in file order (the packet and its bytes are valid during the call only), and
 * `afterChunk` between input chunks. Reports progress as the share of the file's bytes read.
 */
export async function readPackets(
  file: string,
  onPacket: (packet: CapturedPacket) => void,
  run: Pick<RunOptions, "onProgress" | "signal"> & { stage?: string; afterChunk?: () => Promise<void> } = {},
): Promise<{ packets: number; bytes: number }> {
  const total = (await fs.promises.stat(file).catch(() => undefined))?.size;
  if (total === undefined) throw new TracemillError("NOT_FOUND", `${file}: no such file`, { file });
  let source: PacketSource | undefined;
  let consumed = 0;
  let packets = 0;
  const drain = () => {
    try {
      for (let packet = source!.next(); packet !== null; packet = source!.next()) {
        packets++;
        onPacket(packet);
      }
    } catch (error) {
      // Reader errors carry the offset but not the file name the user gave.
      if (error instanceof TracemillError && error.context.file === undefined) {
        throw new TracemillError(error.code, `${file}: ${error.message}`, { ...error.context, file });
      }
      throw error;
    }
  };
  for await (const chunk of fs.createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    if (run.signal?.aborted) throw new TracemillError("CANCELLED", "the run was cancelled", { file });
    const bytes = chunk as Buffer;
    if (source === undefined) source = withFileName(file, () => openPacketSource(bytes));
    else source.push(bytes);
    drain();
    consumed += bytes.length;
    run.onProgress?.({ percent: total > 0 ? (100 * consumed) / total : 100, stage: run.stage ?? "reading capture" });
    await run.afterChunk?.();
  }
  if (source === undefined) throw new TracemillError("BAD_INPUT", `${file}: the file is empty (0 bytes)`, { file });
  source.end();
  drain();
  return { packets, bytes: consumed };
}

function withFileName<T>(file: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof TracemillError && error.context.file === undefined) {
      throw new TracemillError(error.code, `${file}: ${error.message}`, { ...error.context, file });
    }
    throw error;
  }
}
