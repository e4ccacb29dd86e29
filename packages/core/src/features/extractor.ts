// The lifecycle every feature extractor follows: a state per session, updated per packet, written once at the end.
import type { FlowPacket } from "../flow/flow-packet.js";
import type { Session } from "../flow/session.js";
import type { RowBuilder } from "../outputs/row-builder.js";

/**
 * One feature group. `columns` are the CSV columns `finish` writes, in order. States are created once per session
 * record and reused: `init` must reset every field.
 */
export interface Extractor<S> {
  readonly columns: readonly string[];
  create(): S;
  /** The session's first packet arrives (before `update` sees it). */
  init(state: S, packet: FlowPacket): void;
  /** Every packet of the session, the first included. Omitted by groups computed from the session record alone. */
  update?(state: S, packet: FlowPacket): void;
  /** Writes the group's columns for the finished session. */
  finish(state: S, session: Session, row: RowBuilder): void;
}

/** Declares an extractor with its state type checked and erased, so a list of them can be held in one array. */
export function extractor<S>(definition: Extractor<S>): Extractor<unknown> {
  return definition as Extractor<unknown>;
}
