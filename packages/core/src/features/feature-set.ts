// The CSV's feature columns: which extractors run, in which order. The one place that decides the column order.
import type { FlowPacket } from "../flow/flow-packet.js";
import type { Session } from "../flow/session.js";
import type { RowBuilder } from "../outputs/row-builder.js";
import type { Extractor } from "./extractor.js";
import { directionFlags } from "./extractors/direction-flags.js";
import { directionGaps } from "./extractors/direction-gaps.js";
import { directionLengths } from "./extractors/direction-lengths.js";
import { downUp } from "./extractors/down-up.js";
import { duration } from "./extractors/duration.js";
import { endpoints } from "./extractors/endpoints.js";
import { flagCounts } from "./extractors/flag-counts.js";
import { flowGaps } from "./extractors/flow-gaps.js";
import { flowLengths } from "./extractors/flow-lengths.js";
import { headerLengths } from "./extractors/header-lengths.js";
import { rates } from "./extractors/rates.js";

/** The 50 feature columns of SPEC.md §3, group by group, in column order. */
const EXTRACTORS: readonly Extractor[] = [
  endpoints,
  duration,
  directionLengths,
  directionGaps,
  directionFlags,
  headerLengths,
  rates,
  flowLengths,
  flowGaps,
  flagCounts,
  downUp,
];

/** The CSV header names of the feature columns, in order. */
export const FEATURE_COLUMNS: readonly string[] = EXTRACTORS.flatMap((group) => group.columns);

/**
 * Where a session's extractor states start in the feature set's slab. States live side by side in one growing
 * Float64Array rather than one array per session: no allocation per session and no boxed numbers per packet.
 */
export type FeatureState = number;

/** Runs the extractors over a session's packets; one instance serves every session. */
export class FeatureSet {
  readonly columns = FEATURE_COLUMNS;
  /** The states of every session record, `size` slots each. */
  private slab = new Float64Array(0);
  private used = 0;
  private readonly offsets: number[] = [];
  private readonly size: number;
  private readonly updaters: Extractor[];
  private readonly updaterOffsets: number[];

  constructor() {
    let size = 0;
    for (const group of EXTRACTORS) {
      this.offsets.push(size);
      size += group.slots;
    }
    this.size = size;
    this.updaters = EXTRACTORS.filter((group) => group.update !== undefined);
    this.updaterOffsets = this.updaters.map((group) => this.offsets[EXTRACTORS.indexOf(group)]);
  }

  /** Reserves the state of one session record (records are reused, so this runs once per record). */
  createState(): FeatureState {
    if (this.used + this.size > this.slab.length) {
      const grown = new Float64Array(Math.max(1024 * this.size, this.slab.length * 2));
      grown.set(this.slab);
      this.slab = grown;
    }
    const base = this.used;
    this.used += this.size;
    return base;
  }

  /** A session starts (with `first`, which no group needs: every state simply starts at zero). */
  init(state: FeatureState, _first?: FlowPacket): void {
    const slab = this.slab;
    for (let i = state, end = state + this.size; i < end; i++) slab[i] = 0;
  }

  update(state: FeatureState, packet: FlowPacket): void {
    const slab = this.slab;
    const updaters = this.updaters;
    const offsets = this.updaterOffsets;
    for (let i = 0; i < updaters.length; i++) updaters[i].update!(slab, state + offsets[i], packet);
  }

  /** Writes the session's feature columns into `row` (which the caller started and will end). */
  finish(state: FeatureState, session: Session, row: RowBuilder): void {
    for (let i = 0; i < EXTRACTORS.length; i++) EXTRACTORS[i].finish(this.slab, state + this.offsets[i], session, row);
  }
}
