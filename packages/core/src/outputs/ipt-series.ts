// IPT time series: the gaps between a session's consecutive packets (either direction), one text line per session.

const COMMA = 44;
const NEWLINE = 10;
const DOT = 46;
const MINUS = 45;
const ZERO = 48;

/**
 * Collects one session's gaps as integer nanoseconds while its packets arrive, and writes the line once at the end.
 * Keeping integers (not text) per packet keeps the values exact and the per-packet cost to one store. A record is
 * reused from session to session through `reset()`, so its memory is allocated once.
 */
export class IptSeries {
  private gaps = new Float64Array(16);
  private count = 0;
  private last = 0;
  private seen = false;
  /** The line: bytes[0..length) after `write()`. */
  bytes = new Uint8Array(256);
  length = 0;

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
      if (this.count === this.gaps.length) {
        const grown = new Float64Array(this.count * 2);
        grown.set(this.gaps);
        this.gaps = grown;
      }
      const gap = time - this.last;
      // Backward gaps are stored as −gap − 1, so that a backward gap of 0 keeps its direction.
      this.gaps[this.count++] = forward ? gap : -gap - 1;
    }
    this.seen = true;
    this.last = time;
  }

  /** Number of gaps so far: packets − 1 (0 before the second packet). */
  get gapCount(): number {
    return this.count;
  }

  /**
   * Writes the line into `bytes[0..length)`, ending with a line feed: gaps in seconds, comma-separated, no trailing
   * comma; just the line feed for a one-packet session. `signed` puts a minus before the gaps that end at a backward
   * packet ("-0" included).
   */
  write(signed: boolean): void {
    this.length = 0;
    for (let i = 0; i < this.count; i++) {
      // 30 bytes hold a comma, a minus and any gap below 2^53 ns with its 9 decimals.
      if (this.length + 32 > this.bytes.length) this.grow();
      if (i > 0) this.bytes[this.length++] = COMMA;
      const stored = this.gaps[i];
      if (stored < 0) {
        if (signed) this.bytes[this.length++] = MINUS;
        this.seconds(-stored - 1);
      } else {
        this.seconds(stored);
      }
    }
    if (this.length + 1 > this.bytes.length) this.grow();
    this.bytes[this.length++] = NEWLINE;
  }

  /** The line as text, without its line feed (for tests and small outputs). */
  text(signed: boolean): string {
    this.write(signed);
    let text = "";
    for (let i = 0; i < this.length - 1; i += 4096) {
      text += String.fromCharCode(...this.bytes.subarray(i, Math.min(i + 4096, this.length - 1)));
    }
    return text;
  }

  private grow(): void {
    const grown = new Uint8Array(this.bytes.length * 2);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Exact decimal seconds: the integer part, then the 9-digit fraction without its trailing zeros. */
  private seconds(ns: number): void {
    const whole = Math.floor(ns / 1e9);
    // The fraction is below 10^9 < 2^31: integer arithmetic on it stays in 32 bits, the fast path.
    let fraction = (ns - whole * 1e9) | 0;
    this.digits(whole);
    if (fraction === 0) return;
    let width = 9;
    let q = (fraction / 10) | 0;
    while (fraction === q * 10) {
      fraction = q;
      q = (fraction / 10) | 0;
      width--;
    }
    const bytes = this.bytes;
    bytes[this.length++] = DOT;
    const end = this.length + width;
    for (let i = end - 1; i >= this.length; i--) {
      q = (fraction / 10) | 0;
      bytes[i] = ZERO + fraction - q * 10;
      fraction = q;
    }
    this.length = end;
  }

  private digits(value: number): void {
    const bytes = this.bytes;
    if (value < 10) {
      bytes[this.length++] = ZERO + value;
      return;
    }
    const first = this.length;
    let at = first;
    let n = value;
    do {
      const q = n <= 0x7fffffff ? (n / 10) | 0 : Math.floor(n / 10);
      bytes[at++] = ZERO + n - q * 10;
      n = q;
    } while (n !== 0);
    this.length = at;
    for (let i = first, j = at - 1; i < j; i++, j--) {
      const t = bytes[i];
      bytes[i] = bytes[j];
      bytes[j] = t;
    }
  }
}
