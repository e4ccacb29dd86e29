// What a flow table is built with: its timeouts, and the hooks it calls as sessions start, take packets and end.
import type { FlowPacket } from "./flow-packet.js";
import type { Session } from "./session.js";

export interface FlowTableOptions {
  /** A session ends when no packet came for longer than this; default 120 s. */
  idleTimeoutNs?: number;
  /** A session ends when a packet would make it last longer than this; default 1800 s. */
  activeTimeoutNs?: number;
}

export interface FlowTableHooks<T> {
  /**
   * Creates the per-session state of a new session record (records are reused, so this runs rarely); `slot` is the
   * record's slot in the session store: 0, 1, 2, … in creation order.
   */
  createState(slot: number): T;
  /** A session starts with `packet` (called before `onPacket` for the same packet, and before it is counted). */
  onStart(session: Session<T>, packet: FlowPacket): void;
  /** Every packet of a session, the first one included, once it is counted (last time, packet and byte counters). */
  onPacket(session: Session<T>, packet: FlowPacket): void;
  /** A session ended (`session.endReason` says why); the record is reused after this returns. */
  onEnd(session: Session<T>): void;
}
