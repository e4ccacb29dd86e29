// The feature sets' state and rows over one pass: per session a state (lazily), per packet the sets' updates, at the
// end the session key's columns and each set's, side by side in one row.
import { createFlowPacket, type FlowPacket } from "../flow/flow-packet.js";
import { CHUNK_MASK, CHUNK_SHIFT, type Session } from "../flow/session.js";
import type { RowBuilder } from "../outputs/row-builder.js";
import { DISPATCH } from "./feature-dispatch.generated.js";
import type {
  Column,
  FeatureGroup,
  FeatureOptions,
  FeatureSetDefinition,
  GroupPacket,
  SetDispatch,
} from "./feature-group.js";
import { DEFAULT_FEATURE_SETS, SESSION_KEY } from "./feature-sets.js";
import { OnePacketColumns } from "./one-packet-columns.js";

/** The names of a row's feature columns: the key's (the session key unless given), then each set's. */
export const columnNames = (
  sets: readonly FeatureSetDefinition[],
  key: FeatureSetDefinition = SESSION_KEY,
): readonly string[] =>
  [key, ...sets].flatMap((set) => set.groups.flatMap((group) => group.columns.map((column) => column.name)));

/** A row's feature columns with their types (for a typed output such as Parquet): the key's, then each set's. */
export const columnSchema = (
  sets: readonly FeatureSetDefinition[],
  key: FeatureSetDefinition = SESSION_KEY,
): readonly Column[] => [key, ...sets].flatMap((set) => set.groups.flatMap((group) => group.columns));

/** The CSV header names of the default sets' feature columns (SPEC.md §3's 50), in order. */
export const FEATURE_COLUMNS: readonly string[] = columnNames(DEFAULT_FEATURE_SETS);

/**
 * A session's feature state: the slab chunk (state >>> SLAB_SHIFT) and where in it the state starts (state &
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

/** Puts a packet through the sets' groups, the state's slots starting at `base` of `s`. */
type Update = (s: Float64Array, base: number, packet: GroupPacket) => void;

/** A set of the run (the session key first), as the feature set uses it. */
interface Part {
  readonly dispatch: SetDispatch;
  /** Where its block starts in a session's state. */
  readonly at: number;
  readonly columns: number;
  /** Whether its groups have slots: a set without reads no state, and needs no replay. */
  readonly stateful: boolean;
  /**
   * How a one-packet session's columns of this set are written: the set's consecutive groups of one kind taken
   * together, the measuring ones' text kept by packet (a set of one kind is one segment, finished by its dispatch).
   */
  readonly segments: readonly Segment[];
  /** The run's stores of its groups that declare one (FeatureGroup.store), in group order. */
  readonly stores: readonly unknown[];
}

/** Consecutive groups of a set that are all measuring or all naming. */
interface Segment {
  readonly columns: number;
  /** The text of measuring groups for one-packet sessions, by packet; null for naming groups. */
  readonly onePacket: OnePacketColumns | null;
  /** Whether the text depends on the first packet's detail (payload, window, transport header) too. */
  readonly detailed: boolean;
  /** Writes the segment's columns from the set's block at `base` of `s`. */
  readonly finish: (
    s: Float64Array,
    base: number,
    session: Session,
    row: RowBuilder,
    stores: readonly unknown[],
  ) => void;
}

/**
 * Runs the chosen feature sets over a session's packets; one instance serves every session of a run. A session's
 * state is the sets' blocks one after the other (the session key first), padded to whole 64-byte cache lines
 * (tracemill: 16 numbers for each direction and 15 session-wide, 48 with the padding).
 *
 * A state is taken only at a session's second packet (three sessions in four have one packet): the first packet is
 * then replayed into it from the session record, so every group still sees every packet in order. A one-packet
 * session is finished from one reused scratch state into which its packet is replayed. States of ended sessions go
 * to a free list, so the slab holds about as many states as there are live sessions of two packets or more.
 */
export class FeatureSet {
  /** The row's feature columns: the session key's, then each set's. */
  readonly columns: readonly string[];
  /** The same columns with their types, in the same order. */
  readonly schema: readonly Column[];
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
   * seeing one object shape; decoded and index are not rebuilt (no group sees them).
   */
  private readonly replayed = createFlowPacket();
  /** The session key, then the chosen sets, in column order. */
  private readonly parts: readonly Part[];
  /** The parts' updates, in one function (sequence()). */
  private readonly updateParts: Update;
  /** Slab slots per session: the blocks, padded to whole 64-byte cache lines. */
  readonly stateSize: number;
  /**
   * When a group of the run declares firstPacketDetail: each record slot's first packet's payload length and window,
   * two words a slot, in chunks of the flow store's size (slot >>> CHUNK_SHIFT); else null.
   */
  private readonly firstDetail: Int32Array[] | null;

  /**
   * `sets`: the sets whose columns follow the key's, in that order; `options`: what their groups' stores read; `key`:
   * the columns that start the row in the session key's place (`--cic-compat`: CIC-IDS2017's, CIC_COMPAT_KEY).
   */
  constructor(
    sets: readonly FeatureSetDefinition[] = DEFAULT_FEATURE_SETS,
    options: FeatureOptions = {},
    key: FeatureSetDefinition = SESSION_KEY,
  ) {
    const parts: Part[] = [];
    let at = 0;
    for (const set of [key, ...sets]) {
      const dispatch = DISPATCH[set.name];
      const sideSlots = set.groups.reduce((sum, group) => sum + group.sideSlots, 0);
      const flowSlots = set.groups.reduce((sum, group) => sum + group.flowSlots, 0);
      // Only a build that skipped the tests could get here (feature-dispatch.test.ts): fail rather than mix slots.
      if (dispatch === undefined || dispatch.sideSlots !== sideSlots || dispatch.flowSlots !== flowSlots) {
        throw new Error(`the generated feature dispatch does not match the set "${set.name}": regenerate it`);
      }
      parts.push({
        dispatch,
        at,
        columns: set.groups.reduce((sum, group) => sum + group.columns.length, 0),
        stateful: sideSlots + flowSlots > 0,
        segments: segmentsOf(set, dispatch),
        stores: set.groups.flatMap((group) => (group.store === undefined ? [] : [group.store(options)])),
      });
      at += 2 * sideSlots + flowSlots;
    }
    this.parts = parts;
    const detail = [key, ...sets].some((set) => set.groups.some((group) => group.firstPacketDetail === true));
    this.firstDetail = detail ? [] : null;
    this.updateParts = sequence(parts.filter((part) => part.dispatch.update !== undefined));
    this.columns = columnNames(sets, key);
    this.schema = columnSchema(sets, key);
    this.stateSize = Math.max(1, Math.ceil(at / 8)) * 8;
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
    const detail = this.firstDetail;
    if (detail !== null) {
      const slot = first.slot;
      const chunk = slot >>> CHUNK_SHIFT;
      while (detail.length <= chunk) detail.push(new Int32Array(2 << CHUNK_SHIFT));
      const at = (slot & CHUNK_MASK) << 1;
      detail[chunk][at] = first.payloadLength;
      // The window's 16 bits, and the transport header's length (at most 60) above them.
      detail[chunk][at + 1] = first.window | (first.transportHeaderLength << 16);
    }
  }

  /**
   * The state a packet of `session` goes into, once the flow table counted it (its onPacket); -1 for the session's
   * first packet, which waits: the second takes a state and replays the first into it. Then `update(state, packet)`.
   * Kept apart from update() so that the groups' inlining there is what it would be without the lazy state.
   */
  stateFor(session: Session, packet: GroupPacket): FeatureState {
    if (this.starting) {
      this.starting = false;
      return -1;
    }
    const word = session.ownerWord0;
    return word > 0 ? word - 1 : this.second(session, packet);
  }

  /** The session's second packet, `packet`: takes a state for the session and replays its first packet into it. */
  private second(session: Session, packet: GroupPacket): FeatureState {
    // Both packets one way, or one each way and the first is the one not going this packet's way.
    const fwdPackets = session.fwdPackets;
    const firstForward = fwdPackets === 2 || (fwdPackets === 1 && !packet.forward);
    const state = this.take();
    this.replayFirst(session, state, firstForward, packet.forward === firstForward ? packet.length : 0);
    return state;
  }

  /**
   * Puts a packet of the session whose state is `state` through the sets' groups. Small enough for V8 to inline into
   * the flow table's add, which then calls the set's generated update (its groups inlined there) once a packet.
   */
  update(state: FeatureState, packet: GroupPacket): void {
    this.updateParts(this.slabs[state >>> SLAB_SHIFT], state & SLAB_MASK, packet);
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
    const detail = this.firstDetail;
    if (detail !== null) {
      const slot = session.slot;
      const words = detail[slot >>> CHUNK_SHIFT];
      first.payloadLength = words[(slot & CHUNK_MASK) << 1];
      const packed = words[((slot & CHUNK_MASK) << 1) + 1];
      first.window = packed & 0xffff;
      first.transportHeaderLength = packed >>> 16;
    }
    first.forward = forward;
    first.slot = session.slot;
    session.ownerWord0 = state + 1;
    this.update(state, first);
  }

  /**
   * Writes the session's feature columns into `row` (which the caller started and will end): finish() from the
   * session's state (stateOf), except that a one-packet session's columns of a set of measuring groups are copied
   * when an earlier one-packet session had the same packet (OnePacketColumns).
   */
  write(session: Session, row: RowBuilder): void {
    const word = session.ownerWord0;
    if (word > 0) {
      this.finish(word - 1, session, row);
      return;
    }
    const forward = session.fwdPackets === 1;
    const length = forward ? session.fwdBytes : session.bwdBytes;
    const parts = this.parts;
    // The packet is replayed into the scratch state at most once, and only for a set whose text was not kept.
    let replayed = false;
    // What the text of groups that read the first packet's detail depends on besides the usual key.
    let detail0 = 0;
    let detail1 = 0;
    const detail = this.firstDetail;
    if (detail !== null) {
      const slot = session.slot;
      const at = (slot & CHUNK_MASK) << 1;
      detail0 = detail[slot >>> CHUNK_SHIFT][at];
      detail1 = detail[slot >>> CHUNK_SHIFT][at + 1];
    }
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const segments = part.segments;
      for (let j = 0; j < segments.length; j++) {
        const segment = segments[j];
        const kept = segment.onePacket;
        if (kept !== null) {
          const text = segment.detailed
            ? kept.lookup(length, session.ownerWord1, -1 - word, session.protocol, forward, detail0, detail1)
            : kept.lookup(length, session.ownerWord1, -1 - word, session.protocol, forward);
          if (text !== undefined) {
            row.columns(text, segment.columns);
            continue;
          }
        }
        if (part.stateful && !replayed) {
          this.stateOf(session);
          replayed = true;
        }
        if (this.scratch < 0) this.scratch = this.take();
        const start = row.length;
        const state = this.scratch;
        segment.finish(this.slabs[state >>> SLAB_SHIFT], (state & SLAB_MASK) + part.at, session, row, part.stores);
        if (kept !== null) kept.keep(row.bytes, start, row.length);
      }
    }
  }

  /** Writes the session's feature columns into `row` (which the caller started and will end), from `state`. */
  finish(state: FeatureState, session: Session, row: RowBuilder): void {
    const parts = this.parts;
    for (let i = 0; i < parts.length; i++) this.finishPart(parts[i], state, session, row);
  }

  /** One set's columns: its generated finish, which calls its groups' in order. */
  private finishPart(part: Part, state: FeatureState, session: Session, row: RowBuilder): void {
    part.dispatch.finish(this.slabs[state >>> SLAB_SHIFT], (state & SLAB_MASK) + part.at, session, row, part.stores);
  }
}

/**
 * A set's segments: its whole generated finish when its groups are all of one kind; else each run of groups of one
 * kind, its groups' finish called in turn with their slots' offsets (only one-packet sessions go this way).
 */
function segmentsOf(set: FeatureSetDefinition, dispatch: SetDispatch): Segment[] {
  const columnsOf = (groups: readonly FeatureGroup[]) => groups.reduce((sum, group) => sum + group.columns.length, 0);
  const segment = (groups: readonly FeatureGroup[], finish: Segment["finish"]): Segment => ({
    columns: columnsOf(groups),
    onePacket: groups[0].kind === "measuring" ? new OnePacketColumns() : null,
    detailed: groups.some((group) => group.firstPacketDetail === true),
    finish,
  });
  if (set.groups.length === 0) return [];
  if (set.groups.every((group) => group.kind === set.groups[0].kind)) return [segment(set.groups, dispatch.finish)];
  const side = set.groups.reduce((sum, group) => sum + group.sideSlots, 0);
  const withStores = set.groups.filter((group) => group.store !== undefined);
  const calls: { group: FeatureGroup; sideAt: number; flowAt: number; store: number }[] = [];
  let sideAt = 0;
  let flowAt = 0;
  for (const group of set.groups) {
    calls.push({ group, sideAt, flowAt, store: withStores.indexOf(group) });
    sideAt += group.sideSlots;
    flowAt += group.flowSlots;
  }
  const segments: Segment[] = [];
  for (let from = 0; from < calls.length; ) {
    let to = from + 1;
    while (to < calls.length && calls[to].group.kind === calls[from].group.kind) to++;
    const run = calls.slice(from, to);
    segments.push(
      segment(
        run.map((call) => call.group),
        (s, base, session, row, stores) => {
          for (const { group, sideAt, flowAt, store } of run) {
            const fwd = base + sideAt;
            group.finish(
              s,
              fwd,
              fwd + side,
              base + 2 * side + flowAt,
              session,
              row,
              store < 0 ? undefined : stores[store],
            );
          }
        },
      ),
    );
    from = to;
  }
  return segments;
}

/**
 * The parts' generated updates as one function: a single set's own when its block starts the state and it has no
 * stores (as tracemill's), so that a run of one set makes exactly one call per packet; otherwise each in turn.
 */
function sequence(parts: readonly Part[]): Update {
  if (parts.length === 1 && parts[0].at === 0 && parts[0].stores.length === 0) return parts[0].dispatch.update!;
  return (s, base, packet) => {
    for (const part of parts) part.dispatch.update!(s, base + part.at, packet, part.stores);
  };
}
