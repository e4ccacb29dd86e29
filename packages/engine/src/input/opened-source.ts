// The core reader opened on a capture input: its first chunk sniffed, later chunks pushed, and every error naming
// the file; shared by the push reading (read-capture.ts) and the pull cursor (capture-cursor.ts).
import { type CaptureDamage, openPacketSource, type PacketSource, SNIFF_BYTES } from "@tracemill/core/capture";
import { isTracemillError, TracemillError } from "@tracemill/core/errors";
import type { CaptureInput } from "./capture-input.js";
import { namedFault } from "./gunzip.js";

/**
 * Reads the first chunk and opens the matching reader on it (BAD_INPUT, naming `file`, when it is not a capture);
 * `first` is null for an empty input, whose reader then says so at its first packet.
 */
export async function openSource(
  input: CaptureInput,
  file: string,
): Promise<{ source: PacketSource; first: Uint8Array | null }> {
  const first = await readFirstChunk(input, file);
  return { source: withFile(file, () => openPacketSource(first ?? new Uint8Array(0))), first };
}

/**
 * The next chunk; a read error, damaged or cut gzip data or a gzip bomb ends the input like a truncated file
 * (DAMAGED_INPUT once packets were read through `source`, BAD_INPUT before), naming the file and where.
 */
export async function readChunk(
  input: CaptureInput,
  file: string,
  source: PacketSource | null,
): Promise<Uint8Array | null> {
  try {
    return await input.read();
  } catch (error) {
    throw withFileName(namedFault(error, file, source?.packetCount ?? 0), file);
  }
}

/**
 * The first chunk, grown to at least SNIFF_BYTES when the input has them: gzip output can come in small pieces,
 * and ERF (which has no magic) is recognised from its first records.
 */
async function readFirstChunk(input: CaptureInput, file: string): Promise<Uint8Array | null> {
  const first = await readChunk(input, file, null);
  if (first === null || first.length >= SNIFF_BYTES) return first;
  // Copied before reading on: the input reuses its buffers.
  let joined = first.slice();
  while (joined.length < SNIFF_BYTES) {
    const more = await readChunk(input, file, null);
    if (more === null) break;
    const grown = new Uint8Array(joined.length + more.length);
    grown.set(joined);
    grown.set(more, joined.length);
    joined = grown;
  }
  return joined;
}

/**
 * Where and why reading stopped, when `error` is damage part-way (DAMAGED_INPUT): the packets before it stand.
 * Any other error is thrown again, naming the file.
 */
export function damageOf(error: unknown, file: string, source: PacketSource): CaptureDamage {
  if (!isTracemillError(error) || error.code !== "DAMAGED_INPUT") throw withFileName(error, file);
  const named = withFileName(error, file) as TracemillError;
  return { offset: named.context.offset ?? source.consumedBytes, message: named.message };
}

/** Runs fn, naming the file in any TracemillError it throws. */
export function withFile<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw withFileName(error, file);
  }
}

/** A TracemillError without a file in its context, with `file` put in front of its message and into its context. */
export function withFileName(error: unknown, file: string): unknown {
  if (!isTracemillError(error) || error.context.file !== undefined) return error;
  return new TracemillError(error.code, `${file}: ${error.message}`, { ...error.context, file });
}
