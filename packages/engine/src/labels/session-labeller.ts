// How a session gets its label columns, whichever the method: provenance (exact), 5-tuples, or IDS alerts.
import {
  type AlertMatcher,
  type AttackPacketRanges,
  type AttackTupleSet,
  type Column,
  type FlowPacket,
  formatIpAddress,
  type LabelAlert,
  type RowBuilder,
  type Session,
} from "@tracemill/core";

export type LabelMethod = "provenance" | "tuples" | "alerts";

/** One session's label, refilled for every session. */
export interface SessionLabel {
  label: 0 | 1;
  /** Multi-class only: the deciding alert's class id and name (0 and "benign" when unmatched). */
  classId: number;
  className: string;
}

/** Runs beside the feature extraction: sees every packet of every session, labels each session as it ends. */
export interface SessionLabeller {
  readonly method: LabelMethod;
  /** The columns added after the feature columns, typed for a typed output (Parquet). */
  readonly columns: readonly Column[];
  /** Every packet of a session, in capture order; only methods that label by packet have it. */
  onPacket?(session: Session, packet: FlowPacket): void;
  /** The label of a session that just ended (valid until the next call). */
  label(session: Session): SessionLabel;
  /** Writes a label's columns into a started row, after the features. */
  write(label: SessionLabel, row: RowBuilder): void;
  /** Method-specific figures for the summary. */
  summary(): Record<string, unknown>;
}

const BINARY_COLUMNS: readonly Column[] = [{ name: "label", type: "int" }];
const CLASS_COLUMNS: readonly Column[] = [
  { name: "label", type: "int" },
  { name: "class_id", type: "int" },
  { name: "class", type: "string" },
];
const BENIGN = "benign";

/** Fills reused buffers with a session's forward and backward addresses; returns their length (4 or 16). */
export class SessionEndpoints {
  readonly a = new Uint8Array(16);
  readonly b = new Uint8Array(16);
  load(session: Session): 4 | 16 {
    session.address(true, this.a);
    session.address(false, this.b);
    return session.ipVersion === 4 ? 4 : 16;
  }
}

/** The alert of `matcher` that labels a session, if any (its endpoints loaded into the reused `endpoints`). */
export function sessionAlert(
  matcher: AlertMatcher,
  endpoints: SessionEndpoints,
  session: Session,
): LabelAlert | undefined {
  const length = endpoints.load(session);
  // Alerts carry microseconds: the session's window is widened to whole microseconds on both sides.
  const base = session.baseSec * 1e6;
  const startUs = base + Math.floor(session.firstTime / 1000);
  const endUs = base + Math.ceil(session.lastTime / 1000);
  const { a, b } = endpoints;
  return matcher.match(session.protocol, length, a, session.fwdPort, b, session.bwdPort, startUs, endUs);
}

/** An alert file's figures after labelling: the facts, the alerts matched and unmatched (the first `shown` listed). */
export function alertFileSummary(
  matcher: AlertMatcher,
  facts: AlertLabellerFacts,
  shown = Number.POSITIVE_INFINITY,
): Record<string, unknown> {
  const unmatched = matcher.unmatched();
  return {
    ...facts,
    matchedAlerts: facts.alertsRead - facts.ignoredByPriority - unmatched.length,
    unmatchedAlerts: unmatched.length,
    unmatched: unmatched.slice(0, shown).map(describeAlert),
  };
}

abstract class BinaryLabeller implements SessionLabeller {
  abstract readonly method: LabelMethod;
  readonly columns = BINARY_COLUMNS;
  protected readonly current: SessionLabel = { label: 0, classId: 0, className: BENIGN };
  abstract label(session: Session): SessionLabel;
  abstract summary(): Record<string, unknown>;
  write(label: SessionLabel, row: RowBuilder): void {
    row.int(label.label);
  }
}

/** Exact labels from a merge's provenance: a session is an attack when any of its packets came from the attacks. */
export class ProvenanceLabeller extends BinaryLabeller {
  readonly method = "provenance";
  /** Sessions (by seq) that have had an attack packet; entries leave when the session ends. */
  private readonly attacking = new Set<number>();
  private attackPackets = 0;

  constructor(
    private readonly ranges: AttackPacketRanges,
    private readonly record: { file: string; attackInput: string },
  ) {
    super();
  }

  onPacket(session: Session, packet: FlowPacket): void {
    if (this.ranges.isAttack(packet.index)) {
      this.attackPackets++;
      this.attacking.add(session.seq);
    }
  }

  label(session: Session): SessionLabel {
    this.current.label = this.attacking.delete(session.seq) ? 1 : 0;
    return this.current;
  }

  summary(): Record<string, unknown> {
    return {
      provenanceFile: this.record.file,
      attackInput: this.record.attackInput,
      attackPacketsInProvenance: this.ranges.packetCount,
      attackPacketsInSessions: this.attackPackets,
    };
  }
}

/** Labels by 5-tuple, either direction: the sessions whose conversation occurs in the attack capture. */
export class TupleLabeller extends BinaryLabeller {
  readonly method = "tuples";
  private readonly endpoints = new SessionEndpoints();
  private readonly matchedTuples = new Set<string>();

  constructor(
    private readonly tuples: AttackTupleSet,
    private readonly attackFile: string,
  ) {
    super();
  }

  label(session: Session): SessionLabel {
    const e = this.endpoints;
    const length = e.load(session);
    const key = this.tuples.find(session.protocol, length, e.a, session.fwdPort, e.b, session.bwdPort);
    if (key !== undefined) this.matchedTuples.add(key);
    this.current.label = key !== undefined ? 1 : 0;
    return this.current;
  }

  summary(): Record<string, unknown> {
    return {
      attackFile: this.attackFile,
      attackTuples: this.tuples.size,
      attackTuplesWithoutSession: this.tuples.size - this.matchedTuples.size,
    };
  }
}

export interface AlertLabellerFacts {
  alertFile: string;
  format: "unified2" | "eve";
  classification: string;
  toleranceSeconds: number;
  maxPriority: number | null;
  alertsRead: number;
  ignoredByPriority: number;
  /** EVE lines of events other than alerts. */
  otherEvents: number;
  /** EVE alerts without IP addresses, skipped. */
  alertsWithoutAddresses: number;
  /** unified2 records of unknown types that were skipped. */
  skippedRecords: number;
  /** One line per kind of skipped entry, with the first one's place. */
  warnings: string[];
}

/** Multi-class labels from IDS alerts matched by protocol, endpoints and time. */
export class AlertLabeller implements SessionLabeller {
  readonly method = "alerts";
  readonly columns = CLASS_COLUMNS;
  private readonly endpoints = new SessionEndpoints();
  private readonly current: SessionLabel = { label: 0, classId: 0, className: BENIGN };

  constructor(
    private readonly matcher: AlertMatcher,
    private readonly facts: AlertLabellerFacts,
  ) {}

  label(session: Session): SessionLabel {
    const alert = sessionAlert(this.matcher, this.endpoints, session);
    this.current.label = alert ? 1 : 0;
    this.current.classId = alert ? alert.classId : 0;
    this.current.className = alert ? alert.className : BENIGN;
    return this.current;
  }

  write(label: SessionLabel, row: RowBuilder): void {
    row.int(label.label);
    row.int(label.classId);
    row.text(label.className);
  }

  summary(): Record<string, unknown> {
    return alertFileSummary(this.matcher, this.facts);
  }
}

/** An alert as the summary lists it. */
export function describeAlert(alert: LabelAlert): Record<string, unknown> {
  return {
    time: isoMicroseconds(alert.timeUs),
    protocol: alert.protocol,
    src: formatIpAddress(alert.src),
    srcPort: alert.srcPort,
    dst: formatIpAddress(alert.dst),
    dstPort: alert.dstPort,
    signature: `${alert.generatorId}:${alert.signatureId}`,
    priority: alert.priority,
    class: alert.className,
  };
}

/** "2021-12-10T18:53:12.123456Z": UTC with the alert's full microsecond precision. */
export function isoMicroseconds(timeUs: number): string {
  const seconds = Math.floor(timeUs / 1e6);
  const micro = timeUs - seconds * 1e6;
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${String(micro).padStart(6, "0")}Z`;
}
