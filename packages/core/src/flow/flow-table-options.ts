// What a flow table is built with: its timeouts, and the hooks it calls as sessions start, take packets and end.
import type { FlowPacket } from "./flow-packet.js";
import type { Session } from "./session.js";

export interface FlowTableOptions {
  /** A session ends when no packet came for longer than this; default 120 s, at most MAX_IDLE_TIMEOUT_SEC. */
  idleTimeoutNs?: number;
  /** A session ends when a packet would make it last longer than this; default 1800 s, at most MAX_ACTIVE_TIMEOUT_SEC. */
  activeTimeoutNs?: number;
}

/**
 * The longest timeouts, in seconds. A session's times are nanoseconds from its first packet's second in doubles:
 * they stay below the active timeout + 1 s, and the idle rule adds the idle timeout to them, so with idle + active +
 * 1 s below 2^53 ns (104 days) every time, gap and duration is an exact integer.
 */
export const MAX_IDLE_TIMEOUT_SEC = 1_000_000;
export const MAX_ACTIVE_TIMEOUT_SEC = 8_000_000;

/**
 * Every hook gets the table's one session view, pointed at the record concerned for that call only: a hook must not
 * keep it (or compare it) past its call. State per session is kept by `session.slot` (or `packet.slot`): records are
 * reused, and slots are 0, 1, 2, … in the order records are first used, each first seen in an onStart.
 */
export interface FlowTableHooks {
  /** A session starts with `packet` (called before `onPacket` for the same packet, and before it is counted). */
  onStart(session: Session, packet: FlowPacket): void;
  /** Every packet of a session, the first one included, once it is counted (last time, packet and byte counters). */
  onPacket(session: Session, packet: FlowPacket): void;
  /** A session ended (`session.endReason` says why); the record is reused after this returns. */
  onEnd(session: Session): void;
}
