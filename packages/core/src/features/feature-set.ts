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

/**
 * Runs the extractors over a session's packets; one instance serves every session. A session's state is laid out
 * by direction: every group's forward slots, every group's backward slots, then every group's session-wide slots
 * (16 numbers each now, two cache lines): a packet touches its direction's block and the session block only.
 */
export class FeatureSet {
  readonly columns = FEATURE_COLUMNS;
  /** The states of every session record, `size` slots each. */
  private slab: Float64Array = new Float64Array(0);
  private used = 0;
  /** Per group: its offset in a direction block, and in the session-wide block. */
  private readonly sideAt: number[] = [];
  private readonly flowAt: number[] = [];
  /** Slots of one direction block; the backward block starts this far after the forward one. */
  private readonly sideSize: number;
  /** Where the session-wide block starts in a state. */
  private readonly flowStart: number;
  /** Slab slots per session: the blocks, padded to whole 64-byte cache lines. */
  readonly stateSize: number;
  /** Numbers from one record's state to the next's, and where record 0's starts (see useSlab). */
  private recordNumbers: number;
  private stateStart = 0;

  constructor() {
    let side = 0;
    let flow = 0;
    for (const group of EXTRACTORS) {
      this.sideAt.push(side);
      this.flowAt.push(flow);
      side += group.sideSlots;
      flow += group.flowSlots;
    }
    this.sideSize = side;
    this.flowStart = 2 * side;
    this.stateSize = Math.ceil((2 * side + flow) / 8) * 8;
    this.recordNumbers = this.stateSize;
  }

  /**
   * Keeps the states in `slab`, an array someone else owns and lays out (the flow table's record store, which puts
   * each state beside its session's record): states are then offsets into it, record `slot`'s at
   * slot · recordNumbers + stateStart, and createState is not used. Call it again whenever the owner replaces the
   * array.
   */
  useSlab(slab: Float64Array, recordNumbers: number, stateStart: number): void {
    this.slab = slab;
    this.recordNumbers = recordNumbers;
    this.stateStart = stateStart;
  }

  /**
   * The state of the session record in `slot` (its Session.slot), computed rather than read from the record's state
   * object: one memory access fewer when a session ends.
   */
  stateOf(slot: number): FeatureState {
    return slot * this.recordNumbers + this.stateStart;
  }

  /** Reserves the state of one session record (records are reused, so this runs once per record). */
  createState(): FeatureState {
    if (this.used + this.stateSize > this.slab.length) {
      const grown = new Float64Array(Math.max(1024 * this.stateSize, this.slab.length * 2));
      grown.set(this.slab);
      this.slab = grown;
    }
    const base = this.used;
    this.used += this.stateSize;
    return base;
  }

  /** A session starts (with `first`, which no group needs: every state simply starts at zero). */
  init(state: FeatureState, _first?: FlowPacket): void {
    const slab = this.slab;
    for (let i = state, end = state + this.stateSize; i < end; i++) slab[i] = 0;
  }

  /**
   * One call per group with an update, written out rather than looped: a loop's single call site sees seven
   * functions and V8 calls them indirectly; seven call sites each see one, and V8 inlines them. A group added to
   * EXTRACTORS must be added here and in finish() too (the exact row tests fail otherwise).
   */
  update(state: FeatureState, packet: FlowPacket): void {
    const s = this.slab;
    const a = this.sideAt;
    const f = this.flowAt;
    const side = packet.forward ? state : state + this.sideSize;
    const flow = state + this.flowStart;
    directionLengths.update!(s, side + a[2], flow + f[2], packet);
    directionGaps.update!(s, side + a[3], flow + f[3], packet);
    directionFlags.update!(s, side + a[4], flow + f[4], packet);
    headerLengths.update!(s, side + a[5], flow + f[5], packet);
    flowLengths.update!(s, side + a[7], flow + f[7], packet);
    flowGaps.update!(s, side + a[8], flow + f[8], packet);
    flagCounts.update!(s, side + a[9], flow + f[9], packet);
  }

  /**
   * Writes the session's feature columns into `row` (which the caller started and will end): the groups of
   * EXTRACTORS in its order, written out for the same reason as in update().
   */
  finish(state: FeatureState, session: Session, row: RowBuilder): void {
    const s = this.slab;
    const a = this.sideAt;
    const f = this.flowAt;
    const bwd = state + this.sideSize;
    const flow = state + this.flowStart;
    endpoints.finish(s, state + a[0], bwd + a[0], flow + f[0], session, row);
    duration.finish(s, state + a[1], bwd + a[1], flow + f[1], session, row);
    directionLengths.finish(s, state + a[2], bwd + a[2], flow + f[2], session, row);
    directionGaps.finish(s, state + a[3], bwd + a[3], flow + f[3], session, row);
    directionFlags.finish(s, state + a[4], bwd + a[4], flow + f[4], session, row);
    headerLengths.finish(s, state + a[5], bwd + a[5], flow + f[5], session, row);
    rates.finish(s, state + a[6], bwd + a[6], flow + f[6], session, row);
    flowLengths.finish(s, state + a[7], bwd + a[7], flow + f[7], session, row);
    flowGaps.finish(s, state + a[8], bwd + a[8], flow + f[8], session, row);
    flagCounts.finish(s, state + a[9], bwd + a[9], flow + f[9], session, row);
    downUp.finish(s, state + a[10], bwd + a[10], flow + f[10], session, row);
  }
}
