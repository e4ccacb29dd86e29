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

/** Numbers per record: the last packet's time, the gap count (−1 before the first packet), then the first gaps. */
const RECORD = 8;
/** Gaps kept in the record itself (one 64-byte line with its time and count); later ones go to a per-record array. */
const INLINE = RECORD - 2;
/** Records per chunk (2^CHUNK_SHIFT, 512 KiB): slot >>> CHUNK_SHIFT is the chunk, slot & CHUNK_MASK the record in it. */
const CHUNK_SHIFT = 13;
const CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;

/**
 * Collects every session's gaps as integer nanoseconds while its packets arrive, by the session record's store slot
 * (`Session.slot`), and writes a session's line once at its end. Keeping integers (not text) keeps the values exact;
 * keeping them by slot in one array means a packet touches one line of it and no session or state object (the
 * flow table keeps its per-packet work off the session objects too). Slots are reused from session to session
 * through `reset()`; a session of up to 7 packets allocates nothing, a longer one an array of its later gaps. The
 * records are in chunks that never move, as the flow table's: one array doubled with a copy held old and new at
 * once (134 + 268 MB for 2.1 M live sessions, the 10 GB benchmark capture's).
 */
export class IptSeries {
  private readonly chunks: Float64Array[] = [];
  /** Gaps after the first INLINE, per slot, for the slot's current session. */
  private readonly overflow: (Float64Array | undefined)[] = [];

  /** A session starts in `slot` (with no packet yet). */
  reset(slot: number): void {
    while (slot >>> CHUNK_SHIFT >= this.chunks.length) this.chunks.push(new Float64Array(RECORD << CHUNK_SHIFT));
    this.chunks[slot >>> CHUNK_SHIFT][(slot & CHUNK_MASK) * RECORD + 1] = -1;
    // Dropped, not kept for the slot's next session: a slot keeping the longest series it ever held made memory grow
    // with the capture (1.7 GB on the 10 GB benchmark capture) instead of with the sessions live at once.
    this.overflow[slot] = undefined;
  }

  /**
   * Adds the next packet of the session in `slot` at `time` (integer nanoseconds on any fixed base; never
   * decreasing, as the flow table guarantees). `forward` is false for a packet of the session's backward side: the
   * gap ending at it is negative in the signed variant.
   */
  add(slot: number, time: number, forward: boolean): void {
    const records = this.chunks[slot >>> CHUNK_SHIFT];
    const at = (slot & CHUNK_MASK) * RECORD;
    const count = records[at + 1];
    if (count >= 0) {
      const gap = time - records[at];
      // Backward gaps are stored as −gap − 1, so that a backward gap of 0 keeps its direction.
      const stored = forward ? gap : -gap - 1;
      if (count < INLINE) records[at + 2 + count] = stored;
      else this.spill(slot, count - INLINE, stored);
    }
    records[at + 1] = count + 1;
    records[at] = time;
  }

  /** Number of gaps of the session in `slot`: packets − 1 (0 before the second packet). */
  gapCount(slot: number): number {
    return Math.max(0, this.chunks[slot >>> CHUNK_SHIFT][(slot & CHUNK_MASK) * RECORD + 1]);
  }

  /**
   * Writes the line of the session in `slot` into `line` (from its start), ending with a line feed: gaps in seconds,
   * comma-separated, no trailing comma; just the line feed for a one-packet session. `signed` puts a minus before
   * the gaps that end at a backward packet ("-0" included).
   */
  write(slot: number, signed: boolean, line: IptLine): void {
    line.length = 0;
    const count = this.gapCount(slot);
    // 32 bytes hold a comma, a minus and any gap below 2^53 ns with its 9 decimals.
    line.reserve(count * 32 + 1);
    const records = this.chunks[slot >>> CHUNK_SHIFT];
    const at = (slot & CHUNK_MASK) * RECORD;
    const more = this.overflow[slot];
    for (let i = 0; i < count; i++) {
      if (i > 0) line.bytes[line.length++] = COMMA;
      const stored = i < INLINE ? records[at + 2 + i] : more![i - INLINE];
      if (stored < 0) {
        if (signed) line.bytes[line.length++] = MINUS;
        seconds(line, -stored - 1);
      } else {
        seconds(line, stored);
      }
    }
    line.bytes[line.length++] = NEWLINE;
  }

  /** The line of the session in `slot` as text, without its line feed (for tests and small outputs). */
  text(slot: number, signed: boolean): string {
    const line = new IptLine();
    this.write(slot, signed, line);
    let text = "";
    for (let i = 0; i < line.length - 1; i += 4096) {
      text += String.fromCharCode(...line.bytes.subarray(i, Math.min(i + 4096, line.length - 1)));
    }
    return text;
  }

  private spill(slot: number, index: number, stored: number): void {
    let more = this.overflow[slot];
    if (more === undefined || index === more.length) {
      const grown = new Float64Array(more === undefined ? 16 : more.length * 2);
      if (more !== undefined) grown.set(more);
      more = this.overflow[slot] = grown;
    }
    more[index] = stored;
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
