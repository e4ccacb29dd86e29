// Exact labels from a merge's provenance record: a session is an attack when any of its packets came from the
// attack capture; the fraction is its attack packets over all its packets.
import type { AttackPacketRanges, FlowPacket, Session } from "@tracemill/core";
import type { LabelSource, SourceMatch } from "./label-source.js";

export class ProvenanceSource implements LabelSource {
  readonly kind = "provenance";
  /** Attack packets of the session in each store slot, reset when the session ends. */
  private attackPackets = new Float64Array(1024);
  private readonly current: SourceMatch = { className: "", fraction: 1, rule: "" };
  private sessionsMatched = 0;
  private packetsMatched = 0;

  constructor(
    private readonly ranges: AttackPacketRanges,
    /** The record's file and the attack capture it names, the match's rule. */
    private readonly record: { file: string; attackInput: string },
    className: string,
  ) {
    this.current.className = className;
    this.current.rule = record.attackInput;
  }

  onPacket(_session: Session, packet: FlowPacket): void {
    if (!this.ranges.isAttack(packet.index)) return;
    if (packet.slot >= this.attackPackets.length) {
      const grown = new Float64Array(Math.max(packet.slot + 1, this.attackPackets.length * 2));
      grown.set(this.attackPackets);
      this.attackPackets = grown;
    }
    this.attackPackets[packet.slot]++;
    this.packetsMatched++;
  }

  match(session: Session): SourceMatch | null {
    const slot = session.slot;
    if (slot >= this.attackPackets.length || this.attackPackets[slot] === 0) return null;
    this.current.fraction = this.attackPackets[slot] / (session.fwdPackets + session.bwdPackets);
    this.attackPackets[slot] = 0;
    this.sessionsMatched++;
    return this.current;
  }

  summary(): Record<string, unknown> {
    return {
      record: this.record.file,
      attackInput: this.record.attackInput,
      attackPacketsInRecord: this.ranges.packetCount,
      attackPacketsInSessions: this.packetsMatched,
      sessionsMatched: this.sessionsMatched,
    };
  }
}
