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

const RECORD_BYTES = 64;
/** Int32 words per record in SessionStore.words. */
export const WORDS = RECORD_BYTES / 4;
/** Float64 numbers per record in SessionStore.numbers; a record's own numbers start at NUMBERS·slot + 4. */
export const NUMBERS = RECORD_BYTES / 8;

/**
 * The numbers of every session record that change per packet or are compared per packet, side by side in typed
 * arrays: a JavaScript object field holding a double (or an int32 beyond ±2^30) is a separate heap box, one more
 * cache miss per packet. Record `slot` owns the 64 bytes (one cache line) at 64·slot of one buffer, seen as address
 * words [WORDS·slot, WORDS·slot + 8) and numbers [NUMBERS·slot + 4, NUMBERS·slot + 8): a packet's key comparison
 * and its time and byte updates touch that one line.
 */
export class SessionStore {
  /** Address words: forward 0–3, backward 0–3 (IPv4 uses word 0 only). */
  words = new Int32Array(0);
  /** At NUMBERS·slot + 4 …: firstTime, lastTime, fwdBytes, bwdBytes. */
  numbers = new Float64Array(0);
  private count = 0;

  constructor() {
    this.allocate(1024);
  }

  /** A slot for a new record (records are reused, so this runs once per record). */
  add(): number {
    if (RECORD_BYTES * (this.count + 1) > this.words.byteLength) this.allocate(2 * (this.count + 1));
    return this.count++;
  }

  private allocate(records: number): void {
    const buffer = new ArrayBuffer(RECORD_BYTES * records);
    new Uint8Array(buffer).set(new Uint8Array(this.words.buffer));
    this.words = new Int32Array(buffer);
    this.numbers = new Float64Array(buffer);
  }
}

/**
 * A session record. The flow table reuses records: a session is valid from its start until the `onEnd` hook returns.
 * Addresses are kept as 32-bit words so that matching a packet builds no string. Times are integer nanoseconds
 * since the table's time base (`baseSec`), exact below 2^53 ns (104 days).
 */
export class Session<T = unknown> {
  /** Position of this session in start order (0, 1, 2, …): the order of the CSV rows. */
  seq = 0;
  /** 6 (TCP) or 17 (UDP). */
  protocol = 0;
  ipVersion: 4 | 6 = 4;
  /** Forward side's port (the side that sent the first packet, or received a first SYN-ACK). */
  fwdPort = 0;
  /** Backward side's port. */
  bwdPort = 0;
  hash = 0;
  /** Epoch second the times count from (the capture's first packet's second). */
  baseSec = 0;
  /** Position in the capture of the session's first packet. */
  firstIndex = 0;
  fwdPackets = 0;
  bwdPackets = 0;
  finFwd = false;
  finBwd = false;
  /** Set once both FINs or a RST were seen: later packets of the connection still count here, a new SYN does not. */
  closed = false;
  endReason: EndReason = EndReason.EndOfCapture;
  /** Bumped when the record ends, so that stale references to it (in the expiry wheel) are recognised. */
  generation = 0;
  /** The owner's per-session state (feature extractors, series), created once per record and reused. */
  state: T;
  /** This record's slot in the store. */
  readonly slot: number;

  /** `slot` comes from `store.add()`. */
  constructor(
    state: T,
    readonly store: SessionStore,
    slot: number,
  ) {
    this.state = state;
    this.slot = slot;
  }

  /** Time of the first packet (ns since the time base). */
  get firstTime(): number {
    return this.store.numbers[NUMBERS * this.slot + 4];
  }

  /** Time of the latest packet (ns since the time base). */
  get lastTime(): number {
    return this.store.numbers[NUMBERS * this.slot + 5];
  }

  /** Bytes sent by the forward side. */
  get fwdBytes(): number {
    return this.store.numbers[NUMBERS * this.slot + 6];
  }

  /** Bytes sent by the backward side. */
  get bwdBytes(): number {
    return this.store.numbers[NUMBERS * this.slot + 7];
  }

  /** Writes the forward (`forward` true) or backward address into `out` (4 or 16 bytes) and returns `out`. */
  address(forward: boolean, out: Uint8Array): Uint8Array {
    const words = this.store.words;
    const at = WORDS * this.slot + (forward ? 0 : 4);
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
