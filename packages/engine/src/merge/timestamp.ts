// Exact nanosecond timestamps for the merge: per-packet work on (seconds, nanoseconds) integers, rare
// whole-value arithmetic (midpoints, shifts, option parsing) in BigInt nanoseconds. No floating point anywhere.
import type { CapturedPacket } from "@tracemill/core/capture";
import { TracemillError } from "@tracemill/core/errors";

const NS_PER_SEC = 1_000_000_000n;

/** A point in time or a shift as whole seconds and nanoseconds 0..999 999 999 (seconds carry the sign). */
export interface Timestamp {
  sec: number;
  nsec: number;
}

export function toNs(ts: Timestamp): bigint {
  return BigInt(ts.sec) * NS_PER_SEC + BigInt(ts.nsec);
}

export function fromNs(ns: bigint): Timestamp {
  let sec = ns / NS_PER_SEC;
  let nsec = ns % NS_PER_SEC;
  // BigInt division truncates towards zero; timestamps keep nanoseconds non-negative.
  if (nsec < 0n) {
    nsec += NS_PER_SEC;
    sec -= 1n;
  }
  return { sec: Number(sec), nsec: Number(nsec) };
}

/** Negative, zero or positive as a is before, equal to or after b. */
export function compareTimestamps(aSec: number, aNsec: number, bSec: number, bNsec: number): number {
  return aSec !== bSec ? aSec - bSec : aNsec - bNsec;
}

/** Floors `ns` to a multiple of `step` (towards minus infinity, also for negative values). */
export function floorTo(ns: bigint, step: bigint): bigint {
  const rest = ((ns % step) + step) % step;
  return ns - rest;
}

/**
 * Parses a number of seconds written in decimal ("90", "-2.5", "0.000000001") into exact nanoseconds.
 * More than nine decimals would need rounding, so they are refused.
 */
export function parseSeconds(text: string, option: string): bigint {
  const match = /^([+-]?)(\d+)(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!match) {
    throw new TracemillError(
      "BAD_OPTION",
      `${option} expects seconds like 90 or 12.5 (at most 9 decimals), got "${text}"`,
      {
        option,
      },
    );
  }
  const ns = BigInt(match[2]) * NS_PER_SEC + BigInt((match[3] ?? "").padEnd(9, "0"));
  return match[1] === "-" ? -ns : ns;
}

/**
 * Parses an ISO 8601 date-time with an explicit zone ("2023-11-14T22:13:20.123456789Z", "…+01:00") into
 * nanoseconds since the epoch. A time without a zone is refused: guessing the zone is how labels slip by hours.
 */
export function parseIsoTime(text: string, option: string): bigint {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/i.exec(
    text.trim(),
  );
  const fail = () =>
    new TracemillError(
      "BAD_OPTION",
      `${option} expects an ISO 8601 time with a zone, like 2023-11-14T22:13:20.5Z or 2023-11-14T23:13:20+01:00, got "${text}"`,
      { option },
    );
  if (!match) throw fail();
  const [, year, month, day, hour, minute, second, fraction = "", zone] = match;
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const check = new Date(ms);
  if (Number.isNaN(ms) || check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(second) > 59) throw fail();
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== "Z") {
    const digits = zone.replace(":", "");
    offsetMinutes = (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * (digits[0] === "-" ? -1 : 1);
  }
  return (BigInt(ms) / 1000n - BigInt(offsetMinutes * 60)) * NS_PER_SEC + BigInt(fraction.padEnd(9, "0"));
}

/** ISO 8601 UTC text with all nine decimals, for summaries and the provenance record. */
export function formatIsoTime(ns: bigint): string {
  const { sec, nsec } = fromNs(ns);
  const date = new Date(sec * 1000).toISOString().slice(0, 19);
  return `${date}.${String(nsec).padStart(9, "0")}Z`;
}

/** Seconds in decimal with nine decimals ("-2.500000000"), exact. */
export function formatSeconds(ns: bigint): string {
  const sign = ns < 0n ? "-" : "";
  const abs = ns < 0n ? -ns : ns;
  return `${sign}${abs / NS_PER_SEC}.${String(abs % NS_PER_SEC).padStart(9, "0")}`;
}

/** Adds the shift to a packet's timestamp, in place (null stays null: the end of a source). */
export function shifted(packet: CapturedPacket | null, shift: Timestamp): CapturedPacket | null {
  if (!packet) return null;
  let nsec = packet.tsNsec + shift.nsec;
  let sec = packet.tsSec + shift.sec;
  if (nsec >= 1_000_000_000) {
    nsec -= 1_000_000_000;
    sec += 1;
  }
  packet.tsSec = sec;
  packet.tsNsec = nsec;
  return packet;
}
