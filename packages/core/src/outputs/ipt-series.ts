// IPT time series: the gaps between a session's consecutive packets (either direction), one text line per session.

const COMMA = 44;
const NEWLINE = 10;
const DOT = 46;
const MINUS = 45;
const ZERO = 48;

/** The text of one line, reused from line to line: bytes[0..length). One per output, shared by every session. */
export class IptLine {
  bytes = new Uint8Array(4096);
  length = 0;

  /** Makes room for `extra` more bytes. */
  reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/**
 * Collects one session's gaps as integer nanoseconds while its packets arrive, and writes the line once at the end.
 * Keeping integers (not text) per packet keeps the values exact and the per-packet cost to one store. A record is
 * reused from session to session through `reset()`; a one-packet session allocates nothing.
 */
export class IptSeries {
  private gaps: Float64Array | null = null;
  private count = 0;
  private last = 0;
  private seen = false;

  reset(): void {
    this.count = 0;
    this.seen = false;
  }

  /**
   * Adds the session's next packet at `time` (integer nanoseconds on any fixed base; never decreasing, as the flow
   * table guarantees). `forward` is false for a packet of the session's backward side: the gap ending at it is
   * negative in the signed variant.
   */
  add(time: number, forward: boolean): void {
    if (this.seen) {
      let gaps = this.gaps;
      if (gaps === null || this.count === gaps.length) {
        const grown = new Float64Array(gaps === null ? 8 : this.count * 2);
        if (gaps !== null) grown.set(gaps);
        gaps = this.gaps = grown;
      }
      const gap = time - this.last;
      // Backward gaps are stored as −gap − 1, so that a backward gap of 0 keeps its direction.
      gaps[this.count++] = forward ? gap : -gap - 1;
    }
    this.seen = true;
    this.last = time;
  }

  /** Number of gaps so far: packets − 1 (0 before the second packet). */
  get gapCount(): number {
    return this.count;
  }

  /**
   * Writes the line into `line` (from its start), ending with a line feed: gaps in seconds, comma-separated, no
   * trailing comma; just the line feed for a one-packet session. `signed` puts a minus before the gaps that end at a
   * backward packet ("-0" included).
   */
  write(signed: boolean, line: IptLine): void {
    line.length = 0;
    const gaps = this.gaps;
    for (let i = 0; i < this.count; i++) {
      // 32 bytes hold a comma, a minus and any gap below 2^53 ns with its 9 decimals.
      line.reserve(32);
      if (i > 0) line.bytes[line.length++] = COMMA;
      const stored = gaps![i];
      if (stored < 0) {
        if (signed) line.bytes[line.length++] = MINUS;
        seconds(line, -stored - 1);
      } else {
        seconds(line, stored);
      }
    }
    line.reserve(1);
    line.bytes[line.length++] = NEWLINE;
  }

  /** The line as text, without its line feed (for tests and small outputs). */
  text(signed: boolean): string {
    const line = new IptLine();
    this.write(signed, line);
    let text = "";
    for (let i = 0; i < line.length - 1; i += 4096) {
      text += String.fromCharCode(...line.bytes.subarray(i, Math.min(i + 4096, line.length - 1)));
    }
    return text;
  }
}

/** Exact decimal seconds: the integer part, then the 9-digit fraction without its trailing zeros. */
function seconds(line: IptLine, ns: number): void {
  const whole = Math.floor(ns / 1e9);
  // The fraction is below 10^9 < 2^31: integer arithmetic on it stays in 32 bits, the fast path.
  let fraction = (ns - whole * 1e9) | 0;
  digits(line, whole);
  if (fraction === 0) return;
  let width = 9;
  let q = (fraction / 10) | 0;
  while (fraction === q * 10) {
    fraction = q;
    q = (fraction / 10) | 0;
    width--;
  }
  const bytes = line.bytes;
  bytes[line.length++] = DOT;
  const end = line.length + width;
  for (let i = end - 1; i >= line.length; i--) {
    q = (fraction / 10) | 0;
    bytes[i] = ZERO + fraction - q * 10;
    fraction = q;
  }
  line.length = end;
}

function digits(line: IptLine, value: number): void {
  const bytes = line.bytes;
  if (value < 10) {
    bytes[line.length++] = ZERO + value;
    return;
  }
  const first = line.length;
  let at = first;
  let n = value;
  do {
    const q = n <= 0x7fffffff ? (n / 10) | 0 : Math.floor(n / 10);
    bytes[at++] = ZERO + n - q * 10;
    n = q;
  } while (n !== 0);
  line.length = at;
  for (let i = first, j = at - 1; i < j; i++, j--) {
    const t = bytes[i];
    bytes[i] = bytes[j];
    bytes[j] = t;
  }
}
