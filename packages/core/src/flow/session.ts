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

/**
 * A session record. The flow table reuses records: a session is valid from its start until the `onEnd` hook returns.
 * Addresses are kept as 32-bit words (word 0 only for IPv4) so that matching a packet builds no string.
 * Times are integer nanoseconds since the table's time base (`baseSec`), exact below 2^53 ns (104 days).
 */
export class Session<T = unknown> {
  /** Position of this session in start order (0, 1, 2, …): the order of the CSV rows. */
  seq = 0;
  /** 6 (TCP) or 17 (UDP). */
  protocol = 0;
  ipVersion: 4 | 6 = 4;
  /** Forward side (the side that sent the first packet, or received a first SYN-ACK): address words and port. */
  fwd0 = 0;
  fwd1 = 0;
  fwd2 = 0;
  fwd3 = 0;
  fwdPort = 0;
  /** Backward side. */
  bwd0 = 0;
  bwd1 = 0;
  bwd2 = 0;
  bwd3 = 0;
  bwdPort = 0;
  hash = 0;
  /** Epoch second the times count from (the capture's first packet's second). */
  baseSec = 0;
  firstTime = 0;
  lastTime = 0;
  /** Position in the capture of the session's first packet. */
  firstIndex = 0;
  fwdPackets = 0;
  bwdPackets = 0;
  fwdBytes = 0;
  bwdBytes = 0;
  finFwd = false;
  finBwd = false;
  /** Set once both FINs or a RST were seen: later packets of the connection still count here, a new SYN does not. */
  closed = false;
  endReason: EndReason = EndReason.EndOfCapture;
  /** Bumped when the record ends, so that stale references to it (in the expiry wheel) are recognised. */
  generation = 0;
  /** The owner's per-session state (feature extractors, series), created once per record and reused. */
  state: T;

  constructor(state: T) {
    this.state = state;
  }

  /** Writes the forward (`forward` true) or backward address into `out` (4 or 16 bytes) and returns `out`. */
  address(forward: boolean, out: Uint8Array): Uint8Array {
    putWord(out, 0, forward ? this.fwd0 : this.bwd0);
    if (this.ipVersion === 6) {
      putWord(out, 4, forward ? this.fwd1 : this.bwd1);
      putWord(out, 8, forward ? this.fwd2 : this.bwd2);
      putWord(out, 12, forward ? this.fwd3 : this.bwd3);
    }
    return out;
  }

  /** Duration in nanoseconds, first packet to last. */
  get duration(): number {
    return this.lastTime - this.firstTime;
  }
}

function putWord(out: Uint8Array, at: number, word: number): void {
  out[at] = word >>> 24;
  out[at + 1] = (word >>> 16) & 255;
  out[at + 2] = (word >>> 8) & 255;
  out[at + 3] = word & 255;
}
