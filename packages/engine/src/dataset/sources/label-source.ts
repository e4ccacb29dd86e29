// What every labelling source of a dataset build implements: it sees the sessions' packets if it needs them, and
// says for each session that ends whether it matches, with which class, how much of it and by which rule.
import type { FlowPacket, Session } from "@tracemill/core";

export type LabelSourceKind = "provenance" | "tuples" | "schedule" | "alerts";

export interface SourceMatch {
  className: string;
  /** Fraction of the session's packets the source matched (1 for sources that label whole sessions). */
  fraction: number;
  /** The rule, window or file that matched: a schedule window id, an alert's gid:sid, an attack capture's name. */
  rule: string;
}

export interface LabelSource {
  readonly kind: LabelSourceKind;
  /** Every packet of a session, in capture order (the pass's SessionHooks.onPacket); only sources that need it. */
  onPacket?(session: Session, packet: FlowPacket): void;
  /** A session that ends: its match (valid until the next call) or null. */
  match(session: Session): SourceMatch | null;
  /** Figures for the card: e.g. windows or alerts that matched no session. */
  summary(): Record<string, unknown>;
}
