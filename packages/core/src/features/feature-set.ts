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

/** The 50 feature groups of SPEC.md §3, in column order. */
const EXTRACTORS: readonly Extractor<unknown>[] = [
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

/** Per-session state of every extractor, index for index. */
export type FeatureState = unknown[];

/** Runs the extractors over a session's packets; one instance serves every session. */
export class FeatureSet {
  readonly columns = FEATURE_COLUMNS;
  private readonly updaters = EXTRACTORS.filter((group) => group.update !== undefined);
  private readonly updaterSlots = this.updaters.map((group) => EXTRACTORS.indexOf(group));

  createState(): FeatureState {
    return EXTRACTORS.map((group) => group.create());
  }

  init(state: FeatureState, packet: FlowPacket): void {
    for (let i = 0; i < EXTRACTORS.length; i++) EXTRACTORS[i].init(state[i], packet);
  }

  update(state: FeatureState, packet: FlowPacket): void {
    const updaters = this.updaters;
    const slots = this.updaterSlots;
    for (let i = 0; i < updaters.length; i++) updaters[i].update!(state[slots[i]], packet);
  }

  /** Writes the session's feature columns into `row` (which the caller started and will end). */
  finish(state: FeatureState, session: Session, row: RowBuilder): void {
    for (let i = 0; i < EXTRACTORS.length; i++) EXTRACTORS[i].finish(state[i], session, row);
  }
}
