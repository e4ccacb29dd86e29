// One bidirectional TCP/UDP session as the flow table keeps it: endpoints, times, basic counters and close state.

/** Why a session ended (docs/features.md, "Sessions"). */
export const EndReason = {
  /** No packet for longer than the idle timeout. */
  Idle: "idle",
  /** The session lasted longer than the active timeout; the next packet starts a new session. */
  Active: "active",
  /** Both sides sent a FIN. */
  Fin: "fin",
  /** A side sent a RST. */
  Rst: "rst",
  /** Still open when the capture ended. */
  EndOfCapture: "end-of-capture",
} as const;
export type EndReason = (typeof EndReason)[keyof typeof EndReason];

/** Bytes of a record: two cache lines. */
export const RECORD_BYTES = 128;
/** Int32 words and Float64 numbers per record. */
export const RECORD_WORDS = RECORD_BYTES / 4;
export const RECORD_NUMBERS = RECORD_BYTES / 8;
/** Records per chunk of the store (2^CHUNK_SHIFT, 512 KiB): slot >>> CHUNK_SHIFT is the chunk, slot & CHUNK_MASK the record in it. */
export const CHUNK_SHIFT = 12;
export const CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;

/**
 * Word offsets in a record (RECORD_WORDS·(slot & CHUNK_MASK) + … in its chunk). First cache line (bytes 0–63), what
 * matching a packet and expiry read: addresses in words 0–7 (forward 0–3, backward 4–7), then the ports, key and
 * generation words, owner word 0, then the base second and the last time (all that idle expiry reads). Second line:
 * the counters, the first time and what only the session's start and end need, then owner word 1.
 */
export const W_PORTS = 8;
/** protocol | ipVersion << 8 | close bits */
export const W_KEY = 9;
export const W_GENERATION = 10;
/** The owner's words (Session.ownerWord0 and ownerWord1), one in each line: a packet loads both lines anyway. */
export const W_OWNER_0 = 11;
export const W_HASH = 30;
export const W_OWNER_1 = 31;
/** Number offsets in a record (RECORD_NUMBERS·(slot & CHUNK_MASK) + … in its chunk). */
export const N_BASE_SEC = 6;
export const N_LAST_TIME = 7;
export const N_FWD_BYTES = 8;
export const N_BWD_BYTES = 9;
export const N_FWD_PACKETS = 10;
export const N_BWD_PACKETS = 11;
export const N_FIRST_TIME = 12;
export const N_SEQ = 13;
export const N_FIRST_INDEX = 14;

/** Close state bits in the key word. */
export const FIN_FWD = 1 << 16;
export const FIN_BWD = 2 << 16;
export const CLOSED = 4 << 16;
/** The end reason in the key word: its index in END_REASONS (0, end of capture, for a record just opened). */
const REASON_SHIFT = 19;
const REASON_BITS = 7 << REASON_SHIFT;
const END_REASONS: readonly EndReason[] = [
  EndReason.EndOfCapture,
  EndReason.Idle,
  EndReason.Active,
  EndReason.Fin,
  EndReason.Rst,
];

const NS = 1e9;

/**
 * Nanoseconds from the last packet of the record whose numbers start at `n` to the time `sec` + `nsec` (not before
 * it). Exact below 2^53 ns; beyond, the double is rounded but still above every timeout, as the timeouts' limits
 * keep a session's own times below 2^53 ns minus the idle timeout (MAX_IDLE_TIMEOUT_SEC).
 */
export function sinceLast(numbers: Float64Array, n: number, sec: number, nsec: number): number {
  return (sec - numbers[n + N_BASE_SEC]) * NS + nsec - numbers[n + N_LAST_TIME];
}

/** The key word `key` with end reason `reason`. */
export function withReason(key: number, reason: EndReason): number {
  return (key & ~REASON_BITS) | (END_REASONS.indexOf(reason) << REASON_SHIFT);
}

/**
 * Every session record's fields, side by side in typed arrays, so that a packet touches no session object: a
 * JavaScript object is one more cache miss per packet, and its double fields are heap boxes. The records are in
 * chunks of 2^CHUNK_SHIFT that never move: the store grows by one chunk, with no copy and no second buffer alive
 * beside the first (doubling one buffer needed the old and the new, twice its size, at once). Record
 * `slot` owns RECORD_BYTES bytes (two cache lines, laid out above) of chunk slot >>> CHUNK_SHIFT, whose words and
 * numbers are two views of one buffer. The owner keeps its per-session state elsewhere, found from the two owner
 * words: most sessions have a single packet and need none.
 */
export class SessionStore {
  /** Each chunk's words and numbers, by chunk. */
  readonly wordChunks: Int32Array[] = [];
  readonly numberChunks: Float64Array[] = [];
  private count = 0;

  /**
   * Reads one word of each cache line of record `slot` and returns their sum: a caller that does this for several
   * records in a row, before using them, has their lines load together rather than one miss after another (a
   * record that ends has usually left the cache: an idle timeout after its last packet).
   */
  lines(slot: number): number {
    const words = this.wordChunks[slot >>> CHUNK_SHIFT];
    const w = RECORD_WORDS * (slot & CHUNK_MASK);
    return (words[w] + words[w + 16]) | 0;
  }

  /** A slot for a new record (records are reused, so this runs once per record); may add a chunk. */
  add(): number {
    if ((this.count & CHUNK_MASK) === 0) {
      const buffer = new ArrayBuffer(RECORD_BYTES << CHUNK_SHIFT);
      this.wordChunks.push(new Int32Array(buffer));
      this.numberChunks.push(new Float64Array(buffer));
    }
    return this.count++;
  }
}

/**
 * The sessions as the flow table's hooks see them: one view per table, which the table points at a record before
 * each hook call. There is no object per record (one each is heap per live session, all of it marked at every major
 * collection). A hook must not keep the view past its call: the table points it at
 * another record next. Per-session state is kept by `slot` (records are reused: a slot is one session from its
 * onStart to its onEnd). Addresses are kept as 32-bit words so that matching a packet builds no string. Times are
 * integer nanoseconds since the session's own base second (`baseSec`, its first packet's whole second): a session
 * lasts at most the active timeout, so they stay below 2^53 and every time, gap and duration is exact however long
 * the capture and however far its packets are from its first one.
 */
export class Session {
  /** The record's store slot, and its chunk and offsets there. */
  slot = 0;
  private words: Int32Array;
  private numbers: Float64Array;
  private w = 0;
  private n = 0;

  constructor(private readonly store: SessionStore) {
    this.words = new Int32Array(RECORD_WORDS);
    this.numbers = new Float64Array(this.words.buffer);
  }

  /** Points the view at record `slot` (the flow table does, before each hook call). */
  point(slot: number): void {
    this.slot = slot;
    this.words = this.store.wordChunks[slot >>> CHUNK_SHIFT];
    this.numbers = this.store.numberChunks[slot >>> CHUNK_SHIFT];
    this.w = RECORD_WORDS * (slot & CHUNK_MASK);
    this.n = RECORD_NUMBERS * (slot & CHUNK_MASK);
  }

  /** Why the session ended: meaningful in the onEnd hook, where an owner may also set it. */
  get endReason(): EndReason {
    return END_REASONS[(this.words[this.w + W_KEY] & REASON_BITS) >>> REASON_SHIFT];
  }

  set endReason(reason: EndReason) {
    this.words[this.w + W_KEY] = withReason(this.words[this.w + W_KEY], reason);
  }

  /** Position of this session in start order (0, 1, 2, …): the order of the CSV rows. */
  get seq(): number {
    return this.numbers[this.n + N_SEQ];
  }

  /** 6 (TCP) or 17 (UDP). */
  get protocol(): number {
    return this.words[this.w + W_KEY] & 255;
  }

  get ipVersion(): 4 | 6 {
    return ((this.words[this.w + W_KEY] >> 8) & 255) as 4 | 6;
  }

  /** Forward side's port (the side that sent the first packet, or received a first SYN-ACK). */
  get fwdPort(): number {
    return this.words[this.w + W_PORTS] >>> 16;
  }

  /** Backward side's port. */
  get bwdPort(): number {
    return this.words[this.w + W_PORTS] & 0xffff;
  }

  get hash(): number {
    return this.words[this.w + W_HASH];
  }

  /** Epoch second the session's times count from: its first packet's whole second. */
  get baseSec(): number {
    return this.numbers[this.n + N_BASE_SEC];
  }

  /** Position in the capture of the session's first packet. */
  get firstIndex(): number {
    return this.numbers[this.n + N_FIRST_INDEX];
  }

  get fwdPackets(): number {
    return this.numbers[this.n + N_FWD_PACKETS];
  }

  get bwdPackets(): number {
    return this.numbers[this.n + N_BWD_PACKETS];
  }

  get finFwd(): boolean {
    return (this.words[this.w + W_KEY] & FIN_FWD) !== 0;
  }

  get finBwd(): boolean {
    return (this.words[this.w + W_KEY] & FIN_BWD) !== 0;
  }

  /** Set once both FINs or a RST were seen: later packets of the connection still count here, a new SYN does not. */
  get closed(): boolean {
    return (this.words[this.w + W_KEY] & CLOSED) !== 0;
  }

  /** Bumped when the record ends, so that stale references to it (in the expiry wheel) are recognised. */
  get generation(): number {
    return this.words[this.w + W_GENERATION];
  }

  /**
   * Owner word 0 (W_OWNER_0); owner word 1 is the same in the second line. The table never reads or writes them, so
   * a reused record still holds what the owner set for its previous session until the owner sets them again (in
   * onStart). Each is a plain accessor, small enough for V8 to inline without taking from a caller's inlining budget.
   */
  get ownerWord0(): number {
    return this.words[this.w + W_OWNER_0];
  }

  set ownerWord0(value: number) {
    this.words[this.w + W_OWNER_0] = value;
  }

  get ownerWord1(): number {
    return this.words[this.w + W_OWNER_1];
  }

  set ownerWord1(value: number) {
    this.words[this.w + W_OWNER_1] = value;
  }

  /** Time of the first packet (ns since baseSec: below 1e9). */
  get firstTime(): number {
    return this.numbers[this.n + N_FIRST_TIME];
  }

  /** Time of the latest packet (ns since baseSec). */
  get lastTime(): number {
    return this.numbers[this.n + N_LAST_TIME];
  }

  /** Bytes sent by the forward side. */
  get fwdBytes(): number {
    return this.numbers[this.n + N_FWD_BYTES];
  }

  /** Bytes sent by the backward side. */
  get bwdBytes(): number {
    return this.numbers[this.n + N_BWD_BYTES];
  }

  /** The forward (`forward` true) or backward IPv4 address as a 32-bit word, first octet in the top byte (IPv4 only). */
  ipv4(forward: boolean): number {
    return this.words[this.w + (forward ? 0 : 4)];
  }

  /** Writes the forward (`forward` true) or backward address into `out` (4 or 16 bytes) and returns `out`. */
  address(forward: boolean, out: Uint8Array): Uint8Array {
    const words = this.words;
    const at = this.w + (forward ? 0 : 4);
    putWord(out, 0, words[at]);
    if (this.ipVersion === 6) {
      putWord(out, 4, words[at + 1]);
      putWord(out, 8, words[at + 2]);
      putWord(out, 12, words[at + 3]);
    }
    return out;
  }
}

function putWord(out: Uint8Array, at: number, word: number): void {
  out[at] = word >>> 24;
  out[at + 1] = (word >>> 16) & 255;
  out[at + 2] = (word >>> 8) & 255;
  out[at + 3] = word & 255;
}
