// The lifecycle every feature extractor follows: state per session, updated per packet, written once at the end.
import type { FlowPacket } from "../flow/flow-packet.js";
import type { Session } from "../flow/session.js";
import type { RowBuilder } from "../outputs/row-builder.js";

/**
 * One feature group. Its per-session state is `slots` numbers at offset `at` of the session's Float64Array: numbers
 * in a typed array stay unboxed and one allocation serves every group, which is what keeps the per-packet cost low.
 * The state is all zeros when a session starts (the "init" step is that reset); `update` sees every packet, the
 * first included; `finish` writes the group's `columns`, in order.
 */
export interface Extractor {
  readonly columns: readonly string[];
  readonly slots: number;
  update?(state: Float64Array, at: number, packet: FlowPacket): void;
  finish(state: Float64Array, at: number, session: Session, row: RowBuilder): void;
}
