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

/**
 * Index of the quote closing the string whose first character is at `from`; -1 when it does not close by `end` or
 * holds what JSON.parse refuses (a raw control character, an unknown escape), so the slow way reports that line.
 * A plain loop: EVE strings are short, and indexOf on a Node Buffer costs more per call than it saves.
 */
export function stringEnd(b: Uint8Array, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    const c = b[i];
    if (c === QUOTE) return i;
    if (c < 32) return -1;
    if (c === BACKSLASH) {
      const e = b[++i];
      if (e === 117) {
        for (let h = i + 1; h <= i + 4; h++) if (h >= end || hexValues[b[h]] !== 1) return -1;
        i += 4;
      } else if (escapes[e] !== 1) return -1;
    }
  }
  return -1;
}

/** 1 for the bytes that may follow a backslash (besides "u"), and for hex digits. */
const escapes = new Uint8Array(256);
for (const c of '"\\/bfnrt') escapes[c.charCodeAt(0)] = 1;
const hexValues = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") hexValues[c.charCodeAt(0)] = 1;

/** Deeper nesting than Suricata writes: such a value is left to JSON.parse, which does not recurse. */
const maxDepth = 32;

/**
 * Index just past the compact JSON value starting at `at` (no whitespace between tokens, as Suricata writes); -1
 * when it is malformed, not compact, nested deeper than `maxDepth` or runs past `end`.
 */
export function skipValue(b: Uint8Array, at: number, end: number, depth = 0): number {
  const c = b[at];
  if (c === QUOTE) {
    const q = stringEnd(b, at + 1, end);
    return q < 0 ? -1 : q + 1;
  }
  if ((c === 123 || c === 91) && depth >= maxDepth) return -1;
  if (c === 123) {
    let i = at + 1;
    if (b[i] === 125) return i + 1;
    for (;;) {
      const keyEnd = b[i] === QUOTE ? stringEnd(b, i + 1, end) : -1;
      if (keyEnd < 0 || b[keyEnd + 1] !== 58) return -1;
      i = skipValue(b, keyEnd + 2, end, depth + 1);
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
      i = skipValue(b, i, end, depth + 1);
      if (i < 0) return -1;
      if (b[i] === 93) return i + 1;
      if (b[i] !== 44) return -1;
      i++;
    }
  }
  // Numbers by JSON's grammar and the three literals exactly: the caller then requires a separator, so a line JSON.parse
  // refuses ("01", "1x2", "tru", two lines run together after a cut one) goes the slow way and fails there.
  let i = at;
  if (c === 116) i = bytesEqual(b, at, at + 4, literals.true) ? at + 4 : -1;
  else if (c === 102) i = bytesEqual(b, at, at + 5, literals.false) ? at + 5 : -1;
  else if (c === 110) i = bytesEqual(b, at, at + 4, literals.null) ? at + 4 : -1;
  else {
    if (b[i] === 45) i++;
    if (b[i] === 48) i++;
    else if (isDigit(b[i])) while (isDigit(b[i])) i++;
    else return -1;
    if (b[i] === 46) {
      if (!isDigit(b[++i])) return -1;
      while (isDigit(b[i])) i++;
    }
    if (b[i] === 101 || b[i] === 69) {
      i++;
      if (b[i] === 43 || b[i] === 45) i++;
      if (!isDigit(b[i])) return -1;
      while (isDigit(b[i])) i++;
    }
  }
  return i > at && i < end ? i : -1;
}

const literals = { true: ascii("true"), false: ascii("false"), null: ascii("null") };

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
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

/**
 * Reads EVE timestamps: Suricata's "YYYY-MM-DDTHH:MM:SS.ffffff+0000" by position (calendar arithmetic, no Date),
 * anything else through parseEveTimestamp.
 */
export class EveTimeReader {
  read(b: Uint8Array, from: number, to: number, out: TimeOut): boolean {
    if (to - from === 31 && b[from + 4] === 45 && b[from + 7] === 45 && b[from + 10] === 84 && plusZero(b, from + 26)) {
      const year = digitsValue(b, from, from + 4);
      const month = digitsValue(b, from + 5, from + 7);
      const day = digitsValue(b, from + 8, from + 10);
      const hour = b[from + 13] === 58 ? digitsValue(b, from + 11, from + 13) : -1;
      const minute = b[from + 16] === 58 ? digitsValue(b, from + 14, from + 16) : -1;
      const second = b[from + 19] === 46 ? digitsValue(b, from + 17, from + 19) : -1;
      const micros = digitsValue(b, from + 20, from + 26);
      if (
        year >= 0 &&
        month >= 1 &&
        month <= 12 &&
        day >= 0 &&
        hour >= 0 &&
        minute >= 0 &&
        second >= 0 &&
        micros >= 0
      ) {
        out.sec = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
        out.nsec = micros * 1000;
        return true;
      }
    }
    const text = asciiText(b, from, to);
    const ts = text === undefined ? undefined : parseEveTimestamp(text);
    if (!ts) return false;
    out.sec = ts.tsSec;
    out.nsec = ts.tsNsec;
    return true;
  }
}

/** Days since 1970-01-01 of a proleptic Gregorian date, as Date.UTC counts them (days past a month's end roll on). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
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

/**
 * Walks the object at b[at] once: returns the index just past it (-1 when malformed or past `end`) and puts where
 * the values of its members `first` and `second` start into found[0] and found[1] (-1 when absent).
 */
export function eveMembers(
  b: Uint8Array,
  at: number,
  end: number,
  first: Uint8Array,
  second: Uint8Array | undefined,
  found: Int32Array,
): number {
  found[0] = -1;
  found[1] = -1;
  if (b[at] !== 123) return -1;
  let i = at + 1;
  if (b[i] === 125) return i + 1;
  for (;;) {
    const keyEnd = b[i] === QUOTE ? stringEnd(b, i + 1, end) : -1;
    if (keyEnd < 0 || b[keyEnd + 1] !== 58) return -1;
    if (bytesEqual(b, i + 1, keyEnd, first)) found[0] = keyEnd + 2;
    else if (second && bytesEqual(b, i + 1, keyEnd, second)) found[1] = keyEnd + 2;
    i = skipValue(b, keyEnd + 2, end);
    if (i < 0) return -1;
    if (b[i] === 125) return i + 1;
    if (b[i] !== 44) return -1;
    i++;
  }
}
