// Writes one CSV row as ASCII bytes, formatting numbers digit by digit: no string is built per value.
// The formats (docs/features.md, "Number formats") are exact and byte-identical across runs and machines.

import { writeDotted, writeIpv4Word, writeIpv6 } from "./address-text.js";
import { PAIRS, ZERO } from "./digit-pairs.js";

const COMMA = 44;
const NEWLINE = 10;
const DOT = 46;
const MINUS = 45;
const QUOTE = 34;
const OPEN = 91;
const CLOSE = 93;
const TWO_POW_53 = 2 ** 53;

/**
 * A reusable row: call the value methods in column order (each adds the separator it needs), then `end()`;
 * `bytes[0..length)` is the row with its line feed. `start()` begins the next row in the same memory.
 */
export class RowBuilder {
  bytes = new Uint8Array(4096);
  length = 0;
  private fields = 0;

  start(): void {
    this.length = 0;
    this.fields = 0;
  }

  end(): void {
    this.bytes[this.length++] = NEWLINE;
  }

  /** A non-negative integer below 2^53, in decimal. */
  int(value: number): void {
    this.separate();
    if (value < 10) this.bytes[this.length++] = ZERO + value;
    else this.digits(value);
  }

  /** `count` integer columns at once: values[at], values[at + 1], … (each a non-negative integer below 2^53). */
  ints(values: Float64Array, at: number, count: number): void {
    for (let i = at, end = at + count; i < end; i++) {
      const value = values[i];
      this.separate();
      if (value < 10) this.bytes[this.length++] = ZERO + value;
      else this.digits(value);
    }
  }

  /** An integer of either sign below 2^53 in magnitude, in decimal (`-1`, `0`, `1700000000123`). */
  signed(value: number): void {
    this.separate();
    this.signedDigits(value);
  }

  /**
   * A list column: `values[0..count)`, integers of either sign, as a JSON array in one cell, quoted as RFC 4180
   * requires for its commas (`"[74,-1]"`, `"[]"` for none).
   */
  list(values: ArrayLike<number>, count: number): void {
    this.separate();
    this.ensure(count * 22 + 4);
    const bytes = this.bytes;
    bytes[this.length++] = QUOTE;
    bytes[this.length++] = OPEN;
    for (let i = 0; i < count; i++) {
      if (i > 0) bytes[this.length++] = COMMA;
      const value = values[i];
      // Single digits and the −1 that pads a sequence (most of a short session's entries) without a call.
      if (value === -1) {
        bytes[this.length++] = MINUS;
        bytes[this.length++] = ZERO + 1;
      } else if (value >= 0 && value < 10) bytes[this.length++] = ZERO + value;
      else this.signedDigits(value);
    }
    bytes[this.length++] = CLOSE;
    bytes[this.length++] = QUOTE;
  }

  private signedDigits(value: number): void {
    if (value < 0) {
      this.bytes[this.length++] = MINUS;
      value = -value;
    }
    if (value <= 0x7fffffff || !(value < TWO_POW_53)) {
      this.digits(value);
      return;
    }
    // Epoch milliseconds and the like: the digits above 10^9, then nine more, all in int32 arithmetic (digits()'s
    // path for large values divides doubles digit by digit).
    const high = Math.floor(value / 1e9);
    this.digits(high);
    let low = (value - high * 1e9) | 0;
    const bytes = this.bytes;
    for (let at = this.length + 8; at >= this.length; at--) {
      const q = (low / 10) | 0;
      bytes[at] = ZERO + low - q * 10;
      low = q;
    }
    this.length += 9;
  }

  /** `count` columns of 0 at once (the statistics of an empty set): what `count` calls of int(0) write. */
  zeros(count: number): void {
    if (this.length + 2 * count + 1 > this.bytes.length) this.ensure(2 * count);
    const bytes = this.bytes;
    let at = this.length;
    if (this.fields > 0) bytes[at++] = COMMA;
    bytes[at++] = ZERO;
    for (let i = 1; i < count; i++) {
      bytes[at++] = COMMA;
      bytes[at++] = ZERO;
    }
    this.length = at;
    this.fields += count;
  }

  /**
   * `count` columns written before by a RowBuilder, after at least one other column: `text` holds each with its
   * leading comma. This row must already have a column.
   */
  columns(text: Uint8Array, count: number): void {
    if (this.length + text.length + 1 > this.bytes.length) this.ensure(text.length);
    this.bytes.set(text, this.length);
    this.length += text.length;
    this.fields += count;
  }

  /** A duration given in integer nanoseconds, as seconds with up to 9 decimals; non-integers round to the nearest ns. */
  seconds(nanoseconds: number): void {
    this.separate();
    const ns = Math.round(nanoseconds);
    if (ns <= 0x7fffffff) {
      // Below 2.1 s (most gaps): int32 arithmetic only; the whole seconds are one digit.
      const n = ns | 0;
      const whole = (n / 1e9) | 0;
      this.bytes[this.length++] = ZERO + whole;
      this.fraction(n - whole * 1e9, 9);
      return;
    }
    const whole = Math.floor(ns / 1e9);
    this.digits(whole);
    this.fraction(ns - whole * 1e9, 9);
  }

  /** An epoch time from whole seconds (any sign) and integer nanoseconds 0..999 999 999, as seconds with up to 9 decimals. */
  epoch(sec: number, nsec: number): void {
    this.separate();
    if (sec >= 0) {
      this.digits(sec);
      this.fraction(nsec, 9);
    } else if (nsec === 0) {
      this.bytes[this.length++] = MINUS;
      this.digits(-sec);
    } else {
      this.bytes[this.length++] = MINUS;
      this.digits(-sec - 1);
      this.fraction(1e9 - nsec, 9);
    }
  }

  /**
   * A non-negative real, rounded to 6 decimals (half up, on the double product value × 10^6), trailing zeros dropped.
   * NaN, infinities and negatives never reach here by construction; they are written as 0 rather than as text a
   * CSV reader would choke on.
   */
  decimal(value: number): void {
    this.separate();
    if (!(value > 0) || value === Number.POSITIVE_INFINITY) {
      this.bytes[this.length++] = ZERO;
      return;
    }
    const scaled = Math.round(value * 1e6);
    if (scaled <= 0x7fffffff) {
      // Below 2147.48 (most means, deviations and rates): int32 arithmetic only.
      const n = scaled | 0;
      const whole = (n / 1e6) | 0;
      this.digits(whole);
      this.fraction(n - whole * 1e6, 6);
      return;
    }
    if (scaled < TWO_POW_53) {
      const whole = Math.floor(scaled / 1e6);
      this.digits(whole);
      this.fraction(scaled - whole * 1e6, 6);
      return;
    }
    // Beyond 2^53 / 10^6 ≈ 9·10^9 no decimals survive in a double anyway: the integer part is exact.
    this.raw(BigInt(Math.round(value)).toString());
  }

  /** Text known to need no CSV quoting (digits, dots, colons, hex). */
  ascii(text: string): void {
    this.separate();
    this.raw(text);
  }

  private raw(text: string): void {
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }

  /** Any text, quoted per RFC 4180 when it holds a comma, quote, CR or LF. Non-ASCII is written as UTF-8. */
  text(value: string): void {
    this.separate();
    const quoted = /[",\r\n]/.test(value);
    this.ensure(value.length * 6 + 2);
    const out = this.bytes;
    if (quoted) out[this.length++] = 34;
    for (let i = 0; i < value.length; i++) {
      let code = value.codePointAt(i)!;
      if (code > 0xffff) i++;
      if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
      if (code < 0x80) {
        if (code === 34 && quoted) out[this.length++] = 34;
        out[this.length++] = code;
      } else if (code < 0x800) {
        out[this.length++] = 0xc0 | (code >> 6);
        out[this.length++] = 0x80 | (code & 63);
      } else if (code < 0x10000) {
        out[this.length++] = 0xe0 | (code >> 12);
        out[this.length++] = 0x80 | ((code >> 6) & 63);
        out[this.length++] = 0x80 | (code & 63);
      } else {
        out[this.length++] = 0xf0 | (code >> 18);
        out[this.length++] = 0x80 | ((code >> 12) & 63);
        out[this.length++] = 0x80 | ((code >> 6) & 63);
        out[this.length++] = 0x80 | (code & 63);
      }
    }
    if (quoted) out[this.length++] = 34;
  }

  /** An IPv4 address given as its 32-bit word (first octet in the top byte), in dotted decimal. */
  ipv4(word: number): void {
    this.separate();
    this.length = writeIpv4Word(this.bytes, this.length, word);
  }

  /** An IPv4 address (4 bytes) in dotted decimal, or an IPv6 address (16 bytes) in RFC 5952 text. */
  address(bytes: Uint8Array, ipVersion: 4 | 6): void {
    this.separate();
    this.length =
      ipVersion === 4 ? writeDotted(this.bytes, this.length, bytes, 0) : writeIpv6(this.bytes, this.length, bytes);
  }

  private separate(): void {
    if (this.length + 64 > this.bytes.length) this.ensure(64);
    if (this.fields++ > 0) this.bytes[this.length++] = COMMA;
  }

  private ensure(extra: number): void {
    if (this.length + extra + 1 <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra + 1));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  private digits(value: number): void {
    const bytes = this.bytes;
    if (value <= 0x7fffffff) {
      // The digit count first, then the digits from the end, two per division: no reversal pass.
      let n = value | 0;
      let at = this.length + digitCount(n);
      this.length = at;
      while (n >= 100) {
        const q = (n / 100) | 0;
        const pair = 2 * (n - q * 100);
        bytes[--at] = PAIRS[pair + 1];
        bytes[--at] = PAIRS[pair];
        n = q;
      }
      if (n >= 10) {
        bytes[--at] = PAIRS[2 * n + 1];
        bytes[--at] = PAIRS[2 * n];
      } else {
        bytes[--at] = ZERO + n;
      }
      return;
    }
    // NaN and infinities never come from the extractors; one here would loop below forever, so it fails loudly.
    if (!Number.isFinite(value)) throw new RangeError(`a CSV number must be finite (got ${value})`);
    // Above 2^31, `%` and division of a multiple of 10 are exact on doubles where `n / 10` alone is not.
    const first = this.length;
    let at = first;
    let n = value;
    do {
      const digit = n % 10;
      bytes[at++] = ZERO + digit;
      n = (n - digit) / 10;
    } while (n !== 0);
    this.length = at;
    for (let i = first, j = at - 1; i < j; i++, j--) {
      const t = bytes[i];
      bytes[i] = bytes[j];
      bytes[j] = t;
    }
  }

  /**
   * `.` and `value` (1 ≤ value < 10^width, width 6 or 9) as `width` digits with trailing zeros dropped; nothing when
   * value is 0. All digits are written, then the trailing zeros cut: fewer divisions than finding them first.
   */
  private fraction(value: number, width: number): void {
    if (value === 0) return;
    // Below 10^9: int32 arithmetic, which V8 keeps off the slow floating-point remainder.
    let n = value | 0;
    if (width === 9 && n % 1000 === 0) {
      // Nanoseconds from microsecond timestamps (most captures) end in 000: one test instead of writing three zeros
      // and trimming them one by one.
      n = (n / 1000) | 0;
      width = 6;
    }
    const bytes = this.bytes;
    bytes[this.length] = DOT;
    const end = this.length + 1 + width;
    let at = end;
    for (let left = width; left > 1; left -= 2) {
      const q = (n / 100) | 0;
      const pair = 2 * (n - q * 100);
      bytes[--at] = PAIRS[pair + 1];
      bytes[--at] = PAIRS[pair];
      n = q;
    }
    if (width & 1) bytes[--at] = ZERO + n;
    let last = end;
    while (bytes[last - 1] === ZERO) last--;
    this.length = last;
  }
}

/** Decimal digits of a non-negative int32. */
function digitCount(n: number): number {
  if (n < 100000) return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : 5;
  return n < 1000000 ? 6 : n < 10000000 ? 7 : n < 100000000 ? 8 : n < 1000000000 ? 9 : 10;
}
