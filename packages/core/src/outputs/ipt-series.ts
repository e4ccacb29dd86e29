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

/** Gaps in a block (one 64-byte line); a session's blocks are chained, the first taken at its second packet. */
const BLOCK = 8;
const BLOCK_MASK = BLOCK - 1;
/** Slots per chunk of the per-slot tables, and blocks per chunk of the block pool (2^CHUNK_SHIFT each). */
const CHUNK_SHIFT = 13;
const CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;

/**
 * Collects every session's gaps as integer nanoseconds while its packets arrive, by the session record's store slot
 * (`Session.slot`), and writes a session's line once at its end. Keeping integers (not text) keeps the values exact.
 * Per slot it keeps the last packet's time, the gap count and the first and last of the session's blocks (20 bytes);
 * the gaps go to blocks of BLOCK, chained, taken as they fill (none for a one-packet session: three in four) and
 * given back by `end()`: no array per session, and no growth by doubling. Slots are reused from session to session
 * through `reset()`. Everything is in chunks that never move, as the flow table's records: one array doubled with a
 * copy held old and new at once (peak memory: docs/performance.md).
 */
export class IptSeries {
  private readonly times: Float64Array[] = [];
  /** Gaps so far (−1 before the first packet), and the first and last block (−1: none), by slot. */
  private readonly counts: Int32Array[] = [];
  private readonly heads: Int32Array[] = [];
  private readonly tails: Int32Array[] = [];
  /** The blocks' gaps, and each block's next one in its chain (−1: the last). */
  private readonly blocks: Float64Array[] = [];
  private readonly links: Int32Array[] = [];
  private usedBlocks = 0;
  private readonly freeBlocks: number[] = [];

  /** A session starts in `slot` (with no packet yet). */
  reset(slot: number): void {
    while (slot >>> CHUNK_SHIFT >= this.times.length) {
      this.times.push(new Float64Array(1 << CHUNK_SHIFT));
      this.counts.push(new Int32Array(1 << CHUNK_SHIFT));
      this.heads.push(new Int32Array(1 << CHUNK_SHIFT).fill(-1));
      this.tails.push(new Int32Array(1 << CHUNK_SHIFT).fill(-1));
    }
    // Blocks left by a session ended without end() (a failed pass) are given back here.
    this.release(slot);
    this.counts[slot >>> CHUNK_SHIFT][slot & CHUNK_MASK] = -1;
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
      const tails = this.tails[chunk];
      let block = tails[at];
      if ((count & BLOCK_MASK) === 0) {
        const taken = this.takeBlock();
        if (block < 0) this.heads[chunk][at] = taken;
        else this.links[block >>> CHUNK_SHIFT][block & CHUNK_MASK] = taken;
        block = tails[at] = taken;
      }
      this.blocks[block >>> CHUNK_SHIFT][(block & CHUNK_MASK) * BLOCK + (count & BLOCK_MASK)] = stored;
    }
    counts[at] = count + 1;
    times[at] = time;
  }

  /** Bytes of the gap blocks, in use or free (for tests and measurements). */
  get blockBytes(): number {
    return this.blocks.length * (BLOCK << CHUNK_SHIFT) * 8;
  }

  /** The session in `slot` is written: its blocks are free for later sessions. */
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
    let block = this.heads[slot >>> CHUNK_SHIFT][slot & CHUNK_MASK];
    for (let i = 0; i < count; i++) {
      if (i > 0) {
        line.bytes[line.length++] = COMMA;
        if ((i & BLOCK_MASK) === 0) block = this.links[block >>> CHUNK_SHIFT][block & CHUNK_MASK];
      }
      const stored = this.blocks[block >>> CHUNK_SHIFT][(block & CHUNK_MASK) * BLOCK + (i & BLOCK_MASK)];
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
    const block = this.freeBlocks.pop() ?? this.usedBlocks++;
    if (block >>> CHUNK_SHIFT === this.blocks.length) {
      this.blocks.push(new Float64Array(BLOCK << CHUNK_SHIFT));
      this.links.push(new Int32Array(1 << CHUNK_SHIFT));
    }
    this.links[block >>> CHUNK_SHIFT][block & CHUNK_MASK] = -1;
    return block;
  }

  /** Gives the blocks of `slot`'s session back. */
  private release(slot: number): void {
    const chunk = slot >>> CHUNK_SHIFT;
    const at = slot & CHUNK_MASK;
    for (let block = this.heads[chunk][at]; block >= 0; ) {
      this.freeBlocks.push(block);
      block = this.links[block >>> CHUNK_SHIFT][block & CHUNK_MASK];
    }
    this.heads[chunk][at] = -1;
    this.tails[chunk][at] = -1;
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
