// Builds the error a reader throws when its input is damaged or not a capture at all.
import { TracemillError } from "../errors.js";

/** Largest packet any reader accepts, whatever the header's snaplen says: a bound on memory per record. */
export const MAX_PACKET_BYTES = 16 * 1024 * 1024;
/** Captured lengths up to this are accepted even when the header's snaplen is smaller (as libpcap and Wireshark do). */
export const LENIENT_SNAPLEN = 262144;

/**
 * DAMAGED_INPUT when packets were already delivered, BAD_INPUT when nothing valid was read.
 * The message names the byte offset and the reason; the engine adds the file name.
 */
export function damagedInput(offset: number, reason: string, packetsRead: number): TracemillError {
  const code = packetsRead > 0 ? "DAMAGED_INPUT" : "BAD_INPUT";
  const after = packetsRead > 0 ? ` (after ${packetsRead} packet${packetsRead === 1 ? "" : "s"})` : "";
  return new TracemillError(code, `damaged capture at byte ${offset}${after}: ${reason}`, {
    offset,
    reason,
    packetsRead,
  });
}

/** True when a captured length is beyond what a sane capture of this snaplen could hold. */
export function capturedLengthInsane(capturedLength: number, snaplen: number): boolean {
  return capturedLength > saneLengthLimit(snaplen);
}

/** The largest captured length a sane capture of this snaplen holds (a reader may compute it once per interface). */
export function saneLengthLimit(snaplen: number): number {
  return Math.min(MAX_PACKET_BYTES, Math.max(snaplen, LENIENT_SNAPLEN));
}
