// Byte-level pieces for reading Suricata's compact EVE JSON without decoding lines to strings: skipping values,
// keys, digits, timestamps and dotted quads. Each returns -1 (or undefined) for anything it does not expect, and
// the callers then fall back to JSON.parse, so these only need to be right on what they accept.
import { parseIpAddress } from "../net/ip-address.js";
import { parseEveTimestamp } from "./eve-alert.js";

const QUOTE = 34;
const BACKSLASH = 92;

/** Bytes of an ASCII text (keys and literals to compare against). */
export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** True when b[from, to) holds exactly `pattern`. */
export function bytesEqual(b: Uint8Array, from: number, to: number, pattern: Uint8Array): boolean {
  if (to - from !== pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) if (b[from + i] !== pattern[i]) return false;
  return true;
}

/** Index of the quote closing the string whose first character is at `from`; -1 when it does not close by `end`. */
export function stringEnd(b: Uint8Array, from: number, end: number): number {
  let i = from;
  for (;;) {
    const q = b.indexOf(QUOTE, i);
    if (q < 0 || q >= end) return -1;
    let slashes = 0;
    while (q - slashes - 1 >= from && b[q - slashes - 1] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
    i = q + 1;
  }
}

/**
 * Index just past the compact JSON value starting at `at` (no whitespace between tokens, as Suricata writes); -1
 * when it is malformed, not compact or runs past `end`. Strings are skipped with indexOf, not byte by byte.
 */
export function skipValue(b: Uint8Array, at: number, end: number): number {
  const c = b[at];
  if (c === QUOTE) {
    const q = stringEnd(b, at + 1, end);
    return q < 0 ? -1 : q + 1;
  }
  if (c === 123) {
    let i = at + 1;
    if (b[i] === 125) return i + 1;
    for (;;) {
      const keyEnd = b[i] === QUOTE ? stringEnd(b, i + 1, end) : -1;
      if (keyEnd < 0 || b[keyEnd + 1] !== 58) return -1;
      i = skipValue(b, keyEnd + 2, end);
      if (i < 0) return -1;
      if (b[i] === 125) return i + 1;
      if (b[i] !== 44) return -1;
      i++;
    }
  }
  if (c === 91) {
    let i = at + 1;
    if (b[i] === 93) return i + 1;
    for (;;) {
      i = skipValue(b, i, end);
      if (i < 0) return -1;
      if (b[i] === 93) return i + 1;
      if (b[i] !== 44) return -1;
      i++;
    }
  }
  // Numbers, true, false, null: up to the next separator.
  if (!((c >= 48 && c <= 57) || c === 45 || c === 116 || c === 102 || c === 110)) return -1;
  let i = at;
  while (i < end && b[i] !== 44 && b[i] !== 125 && b[i] !== 93) i++;
  return i > at && i < end ? i : -1;
}

/** The non-negative integer in b[from, to) (digits only, exact up to 2^53); -1 otherwise. */
export function digitsValue(b: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 16) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = b[i] - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return Number.isSafeInteger(value) ? value : -1;
}

/** ASCII text of b[from, to); undefined when a byte is not ASCII or is a backslash (an escape). */
export function asciiText(b: Uint8Array, from: number, to: number): string | undefined {
  let text = "";
  for (let i = from; i < to; i++) {
    if (b[i] >= 128 || b[i] === BACKSLASH) return undefined;
    text += String.fromCharCode(b[i]);
  }
  return text;
}

/** A timestamp as seconds and nanoseconds, written into `out`; false when it does not parse. */
export interface TimeOut {
  sec: number;
  nsec: number;
}

/** Reads EVE timestamps, most of them by position within the last minute seen (as parseEveTimestamp does). */
export class EveTimeReader {
  private readonly minute = new Uint8Array(16);
  private minuteSeconds = Number.NaN;

  read(b: Uint8Array, from: number, to: number, out: TimeOut): boolean {
    if (to - from === 31 && !Number.isNaN(this.minuteSeconds) && b[from + 19] === 46 && plusZero(b, from + 26)) {
      let same = true;
      for (let i = 0; i < 16; i++) {
        if (b[from + i] !== this.minute[i]) {
          same = false;
          break;
        }
      }
      const seconds = same && b[from + 16] === 58 ? digitsValue(b, from + 17, from + 19) : -1;
      const micros = seconds >= 0 ? digitsValue(b, from + 20, from + 26) : -1;
      if (micros >= 0) {
        out.sec = this.minuteSeconds + seconds;
        out.nsec = micros * 1000;
        return true;
      }
    }
    const text = asciiText(b, from, to);
    const ts = text === undefined ? undefined : parseEveTimestamp(text);
    if (!ts) return false;
    out.sec = ts.tsSec;
    out.nsec = ts.tsNsec;
    const seconds = to - from === 31 && b[from + 16] === 58 ? digitsValue(b, from + 17, from + 19) : -1;
    if (seconds >= 0 && b[from + 19] === 46 && plusZero(b, from + 26)) {
      this.minute.set(b.subarray(from, from + 16));
      this.minuteSeconds = ts.tsSec - seconds;
    }
    return true;
  }
}

function plusZero(b: Uint8Array, at: number): boolean {
  return b[at] === 43 && b[at + 1] === 48 && b[at + 2] === 48 && b[at + 3] === 48 && b[at + 4] === 48;
}

/**
 * Reads the IP address text b[from, to) into `out` (16 bytes of room); returns its length (4 or 16) or -1.
 * Dotted quads are read in place; IPv6 goes through parseIpAddress.
 */
export function readIpAddress(b: Uint8Array, from: number, to: number, out: Uint8Array): number {
  for (let i = from; i < to; i++) {
    if (b[i] === 58) {
      const text = asciiText(b, from, to);
      const bytes = text === undefined ? undefined : parseIpAddress(text);
      if (!bytes) return -1;
      out.set(bytes);
      return bytes.length;
    }
  }
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = from; i <= to; i++) {
    const c = i < to ? b[i] : 46;
    if (c === 46) {
      if (digits === 0 || value > 255 || part > 3) return -1;
      out[part++] = value;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3 && !(digits === 1 && value === 0)) {
      value = value * 10 + c - 48;
      digits++;
    } else return -1;
  }
  return part === 4 ? 4 : -1;
}
