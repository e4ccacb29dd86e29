// The CSV's feature columns: which extractors run, in which order. The one place that decides the column order.
import { createFlowPacket, type FlowPacket } from "../flow/flow-packet.js";
import type { Session } from "../flow/session.js";
import type { RowBuilder } from "../outputs/row-builder.js";
import type { Extractor, ExtractorPacket } from "./extractor.js";
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
import { OnePacketColumns } from "./one-packet-columns.js";

/**
 * The groups that name a session (its endpoints and start time) rather than measure its packets: they come first,
 * their columns are written for every session, and they read the session record only, never the state (a one-packet
 * session's naming columns may be written without its packet replayed).
 */
const NAMING: readonly Extractor[] = [endpoints];

/**
 * The groups that measure a session's packets. Their contract: for a session of one packet, what finish() writes
 * depends only on that packet's length, header length, TCP flags, protocol and direction (not on its time, its
 * addresses or its ports), so that the text can be kept and copied for the next such packet (OnePacketColumns). The
 * one-packet rows test checks this for every group here.
 */
const MEASURING: readonly Extractor[] = [
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

/** The 50 feature columns of SPEC.md §3, group by group, in column order. */
const EXTRACTORS: readonly Extractor[] = [...NAMING, ...MEASURING];

/** Columns written by the measuring groups. */
const MEASURING_COLUMNS = MEASURING.reduce((sum, group) => sum + group.columns.length, 0);

/** The CSV header names of the feature columns, in order. */
export const FEATURE_COLUMNS: readonly string[] = EXTRACTORS.flatMap((group) => group.columns);

/**
 * A session's extractor states: the slab chunk (state >>> SLAB_SHIFT) and where in it they start (state &
 * SLAB_MASK). States live side by side in Float64Array chunks rather than one array per session: no allocation per
 * session and no boxed numbers per packet.
 */
export type FeatureState = number;

/**
 * Offset bits of a FeatureState: a slab chunk holds as many states as fit in 2^16 numbers (1365 of 48 numbers, 512
 * KiB). The slab grows a chunk at a time and never copies (doubling one array kept old and new alive at once). The
 * owner word keeps state + 1 as a positive int32, hence the chunk limit.
 */
const SLAB_SHIFT = 16;
const SLAB_MASK = (1 << SLAB_SHIFT) - 1;
const MAX_SLABS = 2 ** (31 - SLAB_SHIFT) - 1;

/**
 * Runs the extractors over a session's packets; one instance serves every session. A session's state is laid out
 * by direction: every group's forward slots, every group's backward slots, then every group's session-wide slots
 * (16 numbers for each direction, 15 session-wide, 48 with the padding): a packet touches its direction's block
 * and the session block only.
 *
 * A state is taken only at a session's second packet (three sessions in four have one packet): the first packet is
 * then replayed into it from the session record, so every extractor still sees every packet in order. A one-packet
 * session is finished from one reused scratch state into which its packet is replayed. States of ended sessions go
 * to a free list, so the slab holds about as many states as there are live sessions of two packets or more.
 */
export class FeatureSet {
  readonly columns = FEATURE_COLUMNS;
  /** Every state, `stateSize` slots each, `statesPerSlab` states a chunk. */
  private readonly slabs: Float64Array[] = [];
  private readonly statesPerSlab: number;
  /** States taken from the last chunk. */
  private used: number;
  /** States of ended sessions, taken again before the slab grows. */
  private readonly free: number[] = [];
  /** The state one-packet sessions are finished from (-1 until the first one ends). */
  private scratch = -1;
  /** Set by start(): the next stateFor() is for the same packet, the session's first (the flow table's hook order). */
  private starting = false;
  /**
   * A session's first packet as the replay rebuilds it, made by the flow table's own factory so that update() keeps
   * seeing one object shape; decoded, index and slot are not rebuilt (no extractor sees them).
   */
  private readonly replayed = createFlowPacket();
  /** The measuring columns' text of one-packet sessions, by packet. */
  private readonly onePacket = new OnePacketColumns();
  /** Per group: its offset in a direction block, and in the session-wide block. */
  private readonly sideAt: number[] = [];
  private readonly flowAt: number[] = [];
  /** Slots of one direction block; the backward block starts this far after the forward one. */
  private readonly sideSize: number;
  /** Where the session-wide block starts in a state. */
  private readonly flowStart: number;
  /** Slab slots per session: the blocks, padded to whole 64-byte cache lines. */
  readonly stateSize: number;

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
    this.statesPerSlab = Math.floor((SLAB_MASK + 1) / this.stateSize);
    this.used = this.statesPerSlab;
  }

  /**
   * A session starts with `first` (the flow table's onStart, before the packet is counted). It gets no state yet;
   * the record's owner words keep what the replay needs of the packet beyond the record's times and counters.
   * ownerWord0 is the session's state + 1 once it has one, and until then −1 − the first packet's TCP flags (so
   * always negative); ownerWord1 is the first packet's header length.
   */
  start(session: Session, first: FlowPacket): void {
    session.ownerWord0 = -1 - first.tcpFlags;
    session.ownerWord1 = first.headerLength;
    this.starting = true;
  }

  /**
   * The state a packet of `session` goes into, once the flow table counted it (its onPacket); -1 for the session's
   * first packet, which waits: the second takes a state and replays the first into it. Then `update(state, packet)`.
   * Kept apart from update() so that the extractors' inlining there is what it would be without the lazy state.
   */
  stateFor(session: Session, packet: ExtractorPacket): FeatureState {
    if (this.starting) {
      this.starting = false;
      return -1;
    }
    const word = session.ownerWord0;
    return word > 0 ? word - 1 : this.second(session, packet);
  }

  /** The session's second packet, `packet`: takes a state for the session and replays its first packet into it. */
  private second(session: Session, packet: ExtractorPacket): FeatureState {
    // Both packets one way, or one each way and the first is the one not going this packet's way.
    const fwdPackets = session.fwdPackets;
    const firstForward = fwdPackets === 2 || (fwdPackets === 1 && !packet.forward);
    const state = this.take();
    this.replayFirst(session, state, firstForward, packet.forward === firstForward ? packet.length : 0);
    return state;
  }

  /**
   * Puts a packet of the session whose state is `state` through the extractors. One call per group with an update,
   * written out rather than looped: a loop's single call site sees seven functions and V8 calls them indirectly;
   * seven call sites each see one, and V8 inlines them (within a budget of inlined bytecode that they nearly fill).
   * A group added to EXTRACTORS must be added here and in finishNaming() or finishMeasuring() too (the exact row
   * tests fail otherwise).
   */
  update(state: FeatureState, packet: ExtractorPacket): void {
    const s = this.slabs[state >>> SLAB_SHIFT];
    const base = state & SLAB_MASK;
    const a = this.sideAt;
    const f = this.flowAt;
    const side = packet.forward ? base : base + this.sideSize;
    const flow = base + this.flowStart;
    directionLengths.update!(s, side + a[2], flow + f[2], packet);
    directionGaps.update!(s, side + a[3], flow + f[3], packet);
    directionFlags.update!(s, side + a[4], flow + f[4], packet);
    headerLengths.update!(s, side + a[5], flow + f[5], packet);
    flowLengths.update!(s, side + a[7], flow + f[7], packet);
    flowGaps.update!(s, side + a[8], flow + f[8], packet);
    flagCounts.update!(s, side + a[9], flow + f[9], packet);
  }

  /**
   * The state to finish `session` from: its own, or for a one-packet session the scratch state with its packet
   * replayed (valid until the next call of stateFor or stateOf).
   */
  stateOf(session: Session): FeatureState {
    const word = session.ownerWord0;
    if (word > 0) return word - 1;
    if (this.scratch < 0) this.scratch = this.take();
    this.replayFirst(session, this.scratch, session.fwdPackets === 1, 0);
    // The scratch state stays the feature set's (end() must not free it), and the first packet's flags stay too.
    session.ownerWord0 = word;
    return this.scratch;
  }

  /** The session ended and its row is written: its state is free for a later session. */
  end(session: Session): void {
    const state = session.ownerWord0 - 1;
    if (state >= 0) this.free.push(state);
  }

  /** A state from the free list, or a new one at the end of the slab. */
  private take(): FeatureState {
    if (this.free.length > 0) return this.free.pop() as FeatureState;
    if (this.used === this.statesPerSlab) {
      if (this.slabs.length === MAX_SLABS) throw new RangeError("too many live sessions for the feature states");
      this.slabs.push(new Float64Array(this.statesPerSlab * this.stateSize));
      this.used = 0;
    }
    return ((this.slabs.length - 1) << SLAB_SHIFT) | (this.stateSize * this.used++);
  }

  /**
   * Resets `state`, makes it the session's (which has none yet), and puts the session's first packet into it,
   * rebuilt from the record: its time is the session's first time, its length what its direction's byte counter
   * holds less `later` (bytes counted since, that way), its header length and flags from the owner words.
   */
  private replayFirst(session: Session, state: FeatureState, forward: boolean, later: number): void {
    const slab = this.slabs[state >>> SLAB_SHIFT];
    const base = state & SLAB_MASK;
    for (let i = base, end = base + this.stateSize; i < end; i++) slab[i] = 0;
    const first = this.replayed;
    first.time = session.firstTime;
    first.gap = -1;
    first.length = (forward ? session.fwdBytes : session.bwdBytes) - later;
    first.headerLength = session.ownerWord1;
    first.tcpFlags = -1 - session.ownerWord0;
    first.forward = forward;
    session.ownerWord0 = state + 1;
    this.update(state, first);
  }

  /**
   * Writes the session's feature columns into `row` (which the caller started and will end): finish() from the
   * session's state (stateOf), except that a one-packet session's measuring columns are copied when an earlier
   * one-packet session had the same packet (OnePacketColumns).
   */
  write(session: Session, row: RowBuilder): void {
    const word = session.ownerWord0;
    if (word > 0) {
      this.finish(word - 1, session, row);
      return;
    }
    const forward = session.fwdPackets === 1;
    const text = this.onePacket.lookup(
      forward ? session.fwdBytes : session.bwdBytes,
      session.ownerWord1,
      -1 - word,
      session.protocol,
      forward,
    );
    if (text !== undefined) {
      // A hit follows a miss, which made the scratch state; the naming groups do not read it.
      this.finishNaming(this.scratch, session, row);
      row.columns(text, MEASURING_COLUMNS);
      return;
    }
    const state = this.stateOf(session);
    this.finishNaming(state, session, row);
    const start = row.length;
    this.finishMeasuring(state, session, row);
    this.onePacket.keep(row.bytes, start, row.length);
  }

  /**
   * Writes the session's feature columns into `row` (which the caller started and will end): the groups of
   * EXTRACTORS in its order.
   */
  finish(state: FeatureState, session: Session, row: RowBuilder): void {
    this.finishNaming(state, session, row);
    this.finishMeasuring(state, session, row);
  }

  /** The naming groups' columns (NAMING), written out as in update(). */
  private finishNaming(state: FeatureState, session: Session, row: RowBuilder): void {
    const s = this.slabs[state >>> SLAB_SHIFT];
    const base = state & SLAB_MASK;
    const a = this.sideAt;
    const f = this.flowAt;
    endpoints.finish(s, base + a[0], base + this.sideSize + a[0], base + this.flowStart + f[0], session, row);
  }

  /** The measuring groups' columns (MEASURING), written out as in update(). */
  private finishMeasuring(state: FeatureState, session: Session, row: RowBuilder): void {
    const s = this.slabs[state >>> SLAB_SHIFT];
    const base = state & SLAB_MASK;
    const a = this.sideAt;
    const f = this.flowAt;
    const bwd = base + this.sideSize;
    const flow = base + this.flowStart;
    duration.finish(s, base + a[1], bwd + a[1], flow + f[1], session, row);
    directionLengths.finish(s, base + a[2], bwd + a[2], flow + f[2], session, row);
    directionGaps.finish(s, base + a[3], bwd + a[3], flow + f[3], session, row);
    directionFlags.finish(s, base + a[4], bwd + a[4], flow + f[4], session, row);
    headerLengths.finish(s, base + a[5], bwd + a[5], flow + f[5], session, row);
    rates.finish(s, base + a[6], bwd + a[6], flow + f[6], session, row);
    flowLengths.finish(s, base + a[7], bwd + a[7], flow + f[7], session, row);
    flowGaps.finish(s, base + a[8], bwd + a[8], flow + f[8], session, row);
    flagCounts.finish(s, base + a[9], bwd + a[9], flow + f[9], session, row);
    downUp.finish(s, base + a[10], bwd + a[10], flow + f[10], session, row);
  }
}
