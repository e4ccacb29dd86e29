// Every labelling source of a dataset, asked in the order of precedence: the first that matches a session labels it;
// a later one that matches with another class is a conflict, counted by pair (docs/datasets.md, "Precedence").
import type { Column, FlowPacket, RowBuilder, Session } from "@tracemill/core";
import type { LabelSource, LabelSourceKind } from "./label-source.js";

export const BENIGN_CLASS = "benign";

/** The label and provenance columns every dataset row ends with. */
export const LABEL_COLUMNS: readonly Column[] = [
  { name: "label", type: "int" },
  { name: "class", type: "string" },
  { name: "label_source", type: "string" },
  { name: "label_fraction", type: "real" },
  { name: "label_rule", type: "string" },
];

/** A session's label as the build keeps it: the class and the campaign (source and rule) as small integers. */
export interface DecidedLabel {
  /** 0 for benign, then classes in the order first seen. */
  classId: number;
  /** -1 for benign, then `source:rule` in the order first seen. */
  campaign: number;
}

export class CombinedLabels {
  /** Class names by id; 0 is benign. */
  readonly classes: string[] = [BENIGN_CLASS];
  /** Campaigns (`source:rule`) by id. */
  readonly campaigns: string[] = [];
  private readonly classIds = new Map<string, number>([[BENIGN_CLASS, 0]]);
  private readonly campaignIds = new Map<string, number>();
  private readonly decided: DecidedLabel = { classId: 0, campaign: -1 };
  /** Sessions labelled by each source, and "none". */
  readonly bySource: Record<string, number> = { none: 0 };
  /** "winner>loser" → sessions where both matched with different classes. */
  readonly conflicts: Record<string, number> = {};
  /** "winner>loser" → sessions where both matched with the same class. */
  readonly agreements: Record<string, number> = {};
  private sources: readonly LabelSource[] = [];
  private packetSources: LabelSource[] = [];
  /** Each source's summary, by capture, once the capture is read. */
  private readonly summariesByCapture: { capture: string; sources: Record<string, unknown> }[] = [];

  /** The kinds of source some capture was labelled with. */
  private readonly used = new Set<LabelSourceKind>();

  constructor(private readonly order: readonly LabelSourceKind[]) {}

  /** The sources used, in the order of precedence. */
  get precedence(): LabelSourceKind[] {
    return this.order.filter((kind) => this.used.has(kind));
  }

  /**
   * The sources that label the sessions of the next capture, in the order of precedence (a merge's provenance record
   * belongs to one capture; the others are the same objects for every capture). Classes, campaigns and counts go on.
   */
  use(sources: readonly LabelSource[]): void {
    this.sources = sources;
    for (const source of sources) {
      this.used.add(source.kind);
      this.bySource[source.kind] ??= 0;
    }
    this.packetSources = sources.filter((source) => source.onPacket !== undefined);
  }

  /** Records the sources' summaries after `capture` was read. */
  captureDone(capture: string): void {
    const sources: Record<string, unknown> = {};
    for (const source of this.sources) sources[source.kind] = source.summary();
    this.summariesByCapture.push({ capture, sources });
  }

  /** Whether any source needs every packet (the pass skips the packet hook otherwise). */
  get needsPackets(): boolean {
    return this.packetSources.length > 0;
  }

  onPacket(session: Session, packet: FlowPacket): void {
    for (const source of this.packetSources) source.onPacket!(session, packet);
  }

  /** Decides the label of a session that ends and writes its label columns into the row. */
  label(session: Session, row: RowBuilder): DecidedLabel {
    let winner: LabelSourceKind | null = null;
    let className = BENIGN_CLASS;
    let fraction = 0;
    let rule = "";
    // Every source sees every session: sources that keep per-session state clear it in match().
    for (const source of this.sources) {
      const match = source.match(session);
      if (match === null) continue;
      if (winner === null) {
        winner = source.kind;
        className = match.className;
        fraction = match.fraction;
        rule = match.rule;
      } else {
        const pair = `${winner}>${source.kind}`;
        const counts = match.className === className ? this.agreements : this.conflicts;
        counts[pair] = (counts[pair] ?? 0) + 1;
      }
    }
    this.bySource[winner ?? "none"] = (this.bySource[winner ?? "none"] ?? 0) + 1;
    row.int(winner === null ? 0 : 1);
    row.text(className);
    row.text(winner ?? "");
    row.decimal(fraction);
    row.text(rule);
    this.decided.classId = this.idOf(this.classIds, this.classes, className);
    this.decided.campaign = winner === null ? -1 : this.idOf(this.campaignIds, this.campaigns, `${winner}:${rule}`);
    return this.decided;
  }

  /**
   * The sources' figures: a source shared by every capture once (its figures as they stand after the last), a
   * capture's own (provenance) per capture.
   */
  summaries(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const provenance: unknown[] = [];
    for (const { capture, sources } of this.summariesByCapture) {
      for (const [kind, summary] of Object.entries(sources)) {
        if (kind === "provenance") provenance.push({ capture, ...(summary as object) });
        else out[kind] = summary;
      }
    }
    if (provenance.length > 0) out.provenance = provenance;
    return out;
  }

  private idOf(ids: Map<string, number>, names: string[], name: string): number {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      names.push(name);
      ids.set(name, id);
    }
    return id;
  }
}
