// The lifecycle every feature extractor follows: state per session, updated per packet, written once at the end.
import type { FlowPacket } from "../flow/flow-packet.js";
import type { Session } from "../flow/session.js";
import type { RowBuilder } from "../outputs/row-builder.js";

/**
 * What update() sees of a packet: no more than the session record can give back, because a session's first packet
 * reaches the extractors only at its second packet or at its end, rebuilt from the record (FeatureSet.start).
 */
export type ExtractorPacket = Pick<FlowPacket, "time" | "gap" | "length" | "headerLength" | "tcpFlags" | "forward">;

/**
 * One feature group. Its per-session state is numbers in the feature set's Float64Array: `sideSlots` for each
 * direction and `flowSlots` for the whole session. The feature set lays every group's forward slots side by side,
 * then the backward slots, then the session-wide ones, so a packet touches its own direction's block and the session
 * block (a few cache lines) rather than a line per group. Numbers in a typed array stay unboxed and one allocation
 * serves every group. The state is all zeros before a session's first packet (the "init" step is that reset);
 * `update` sees every packet, the first included, in order, with `side` at this group's slots of the packet's
 * direction; `finish` writes the group's `columns`, in order.
 */
export interface Extractor {
  readonly columns: readonly string[];
  readonly sideSlots: number;
  readonly flowSlots: number;
  update?(state: Float64Array, side: number, flow: number, packet: ExtractorPacket): void;
  finish(state: Float64Array, fwd: number, bwd: number, flow: number, session: Session, row: RowBuilder): void;
}
