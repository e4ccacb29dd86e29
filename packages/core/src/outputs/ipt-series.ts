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

/** Gaps in a block: a session's first ones, in a block taken at its second packet (one line). */
const BLOCK = 8;
/** Slots per chunk of the per-slot tables, and blocks per chunk of the block pool (2^CHUNK_SHIFT each). */
const CHUNK_SHIFT = 13;
const CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;

/**
 * Collects every session's gaps as integer nanoseconds while its packets arrive, by the session record's store slot
 * (`Session.slot`), and writes a session's line once at its end. Keeping integers (not text) keeps the values exact.
 * Per slot it keeps the last packet's time, the gap count and the session's block (16 bytes); a block of BLOCK gaps
 * is taken only at a session's second packet (three sessions in four have one packet) and given back by `end()`, and
 * the gaps after the first BLOCK go to an array of the session's own. Slots are reused from session to session
 * through `reset()`. Everything is in chunks that never move, as the flow table's records: one array doubled with a
 * copy held old and new at once. On the 10 GB benchmark capture (2.1 M live sessions) a 64-byte record per slot took
 * 135 MB; these tables take 34 MB, and the blocks follow the sessions of two packets or more.
 */
export class IptSeries {
  private readonly times: Float64Array[] = [];
  /** Gaps so far (−1 before the first packet), and the block (−1: none), by slot. */
  private readonly counts: Int32Array[] = [];
  private readonly handles: Int32Array[] = [];
  private readonly blocks: Float64Array[] = [];
  private usedBlocks = 0;
  private readonly freeBlocks: number[] = [];
  /** Gaps after the first BLOCK, per slot, for the slot's current session. */
  private readonly overflow: (Float64Array | undefined)[] = [];

  /** A session starts in `slot` (with no packet yet). */
  reset(slot: number): void {
    while (slot >>> CHUNK_SHIFT >= this.times.length) {
      this.times.push(new Float64Array(1 << CHUNK_SHIFT));
      this.counts.push(new Int32Array(1 << CHUNK_SHIFT));
      this.handles.push(new Int32Array(1 << CHUNK_SHIFT).fill(-1));
    }
    this.counts[slot >>> CHUNK_SHIFT][slot & CHUNK_MASK] = -1;
    // A block left by a session ended without end() (a failed pass) is given back here.
    this.release(slot);
  }

  /**
   * Adds the next packet of the session in `slot` at `time` (integer nanoseconds on any fixed base; never
   * decreasing, as the flow table guarantees). `forward` is false for a packet of the session's backward side: the
   * gap ending at it is negative in the signed variant.
   */
  add(slot: number, time: number, forward: boolean): void {
    const chunk = slot >>> CHUNK_SHIFT;
    const at = slot & CHUNK_MASK;
    const counts = this.counts[chunk];
    const times = this.times[chunk];
    const count = counts[at];
    if (count >= 0) {
      const gap = time - times[at];
      // Backward gaps are stored as −gap − 1, so that a backward gap of 0 keeps its direction.
      const stored = forward ? gap : -gap - 1;
      if (count < BLOCK) {
        let handle = this.handles[chunk][at];
        if (handle < 0) handle = this.handles[chunk][at] = this.takeBlock();
        this.blocks[handle >>> CHUNK_SHIFT][(handle & CHUNK_MASK) * BLOCK + count] = stored;
      } else {
        this.spill(slot, count - BLOCK, stored);
      }
    }
    counts[at] = count + 1;
    times[at] = time;
  }

  /** Bytes of the gap blocks, in use or free (for tests and measurements). */
  get blockBytes(): number {
    return this.blocks.length * (BLOCK << CHUNK_SHIFT) * 8;
  }

  /** The session in `slot` is written: its block and gap array are free for later sessions. */
  end(slot: number): void {
    this.release(slot);
  }

  /** Number of gaps of the session in `slot`: packets − 1 (0 before the second packet). */
  gapCount(slot: number): number {
    return Math.max(0, this.counts[slot >>> CHUNK_SHIFT][slot & CHUNK_MASK]);
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
    const handle = this.handles[slot >>> CHUNK_SHIFT][slot & CHUNK_MASK];
    const block = count > 0 ? this.blocks[handle >>> CHUNK_SHIFT] : undefined;
    const at = (handle & CHUNK_MASK) * BLOCK;
    const more = this.overflow[slot];
    for (let i = 0; i < count; i++) {
      if (i > 0) line.bytes[line.length++] = COMMA;
      const stored = i < BLOCK ? block![at + i] : more![i - BLOCK];
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

  private takeBlock(): number {
    const free = this.freeBlocks.pop();
    if (free !== undefined) return free;
    if ((this.usedBlocks & CHUNK_MASK) === 0) this.blocks.push(new Float64Array(BLOCK << CHUNK_SHIFT));
    return this.usedBlocks++;
  }

  private release(slot: number): void {
    const handles = this.handles[slot >>> CHUNK_SHIFT];
    const handle = handles[slot & CHUNK_MASK];
    if (handle >= 0) this.freeBlocks.push(handle);
    handles[slot & CHUNK_MASK] = -1;
    // Dropped, not kept for the slot's next session: a slot keeping the longest series it ever held made memory grow
    // with the capture (1.7 GB on the 10 GB benchmark capture) instead of with the sessions live at once.
    this.overflow[slot] = undefined;
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
