// The plugin interface of the features: a group (one file in groups/) and a set (a named, ordered list of groups).
import type { FlowPacket } from "../flow/flow-packet.js";
import type { Session } from "../flow/session.js";
import type { RowBuilder } from "../outputs/row-builder.js";

/**
 * What update() sees of a packet: no more than the feature set can give back, because a session's first packet
 * reaches the groups only at its second packet or at its end, rebuilt from the session record and, for
 * `transportHeaderLength`, `payloadLength` and `window`, from what the feature set keeps of first packets when a
 * group of the run declares `firstPacketDetail` (FeatureSet.start).
 */
export type GroupPacket = Pick<
  FlowPacket,
  | "time"
  | "gap"
  | "length"
  | "headerLength"
  | "transportHeaderLength"
  | "tcpFlags"
  | "payloadLength"
  | "window"
  | "forward"
  | "slot"
>;

/**
 * The run's options that groups may read, through their `store` (FeatureSet's second argument). `splt`: packets in
 * the nfstream set's early-packet sequences (packet-sequences.ts: default 32, 0 to 255).
 */
export interface FeatureOptions {
  readonly splt?: number;
}

/**
 * A column's values, for a reader of the CSV and a columnar writer: "int" a whole number; "real" a decimal number
 * (means, deviations, rates; durations and gaps in seconds); "time" an instant, seconds since the epoch to the
 * nanosecond; "string" text (addresses); "list" several numbers in one cell (a session's first packets' sizes).
 */
export type ColumnType = "int" | "real" | "time" | "string" | "list";

export interface Column {
  readonly name: string;
  readonly type: ColumnType;
}

/**
 * One feature group: its columns, its per-session state, what it does per packet and at the session's end.
 *
 * State: numbers in the feature set's Float64Array, `sideSlots` for each direction and `flowSlots` for the whole
 * session (laid out by set: SetDispatch); numbers in a typed array stay unboxed and one allocation serves every
 * group (a group whose state per session has a size the run chooses keeps it in a `store`, below). The state is
 * all zeros before a session's first packet (that reset is the group's init: a group that needs another start
 * value keeps it offset, as direction-gaps keeps the previous time + 1). `update` sees every packet, the first
 * included, in order, with `side` at this group's slots of the packet's direction; `finish` writes `columns`, in
 * order, with `fwd`, `bwd` and `flow` at its slots of each block.
 *
 * `kind` says what the columns of a one-packet session depend on (three sessions in four have one packet):
 * - "measuring": only on that packet's length, header length, TCP flags, protocol and direction (not its time, its
 *   payload length or window, its addresses or its ports), so the text of a set made of measuring groups is kept by
 *   that key and copied for the next such session (OnePacketColumns). The one-packet rows test checks this for every
 *   measuring group;
 * - "naming": on anything else of the session or its packet too (the session key; a group reading a packet's window
 *   or payload length): written anew for every session.
 *
 * `firstPacketDetail`: the group reads `transportHeaderLength`, `payloadLength` or `window`, which the session record
 * does not keep; the
 * feature set then keeps them for every session's first packet (8 bytes per record slot) so that the replay gives
 * them back. Without it they read 0 in a replayed first packet.
 *
 * `store`: a group whose per-session state has a size the run chooses (the nfstream set's first N packets) keeps it
 * outside the slots, in an object made once per run from the run's options; `update` and `finish` get it as their
 * last argument. It keeps its values by the session record's store slot (`packet.slot`, `session.slot`), which is the
 * session's from its first packet to its end, so it needs no call at the session's start or end; `finish` must only
 * read it (the feature set may finish a session twice). A set without such groups is called without it.
 *
 * `name` is the group's file name in groups/, where it is exported under the same name in camelCase: the generated
 * dispatch (feature-dispatch.generated.ts) imports it from there.
 */
export interface FeatureGroup {
  readonly name: string;
  readonly kind: "naming" | "measuring";
  readonly columns: readonly Column[];
  readonly sideSlots: number;
  readonly flowSlots: number;
  readonly firstPacketDetail?: boolean;
  readonly store?: (options: FeatureOptions) => unknown;
  update?(state: Float64Array, side: number, flow: number, packet: GroupPacket, store?: unknown): void;
  finish(
    state: Float64Array,
    fwd: number,
    bwd: number,
    flow: number,
    session: Session,
    row: RowBuilder,
    store?: unknown,
  ): void;
}

/**
 * A feature set: what a run chooses by name, its columns being its groups' columns in order. Sets share the pass:
 * their states sit side by side in one session state and their columns side by side in one row, after the session
 * key (feature-sets.ts).
 */
export interface FeatureSetDefinition {
  readonly name: string;
  readonly description: string;
  readonly groups: readonly FeatureGroup[];
  /**
   * Session options (seconds) that replace Tracemill's defaults when this set is the run's only one and the run does
   * not set them (a set reproducing a tool's flow boundaries, as cic does CICFlowMeter's).
   */
  readonly defaults?: { readonly idleTimeout?: number; readonly activeTimeout?: number };
}

/**
 * A set's groups called one by one, as generated from its definition (feature-dispatch.generated.ts): one call site
 * per group, so that V8 inlines each group's update (a loop's single call site would see them all and call them
 * indirectly), with the groups' offsets written in. The set's state is one block at `at` in the session's state:
 * every group's forward slots side by side, then the backward slots, then the session-wide ones (`sideSlots`,
 * `sideSlots`, `flowSlots` numbers), so that a packet touches its own direction's slots and the session-wide ones
 * (a few cache lines) rather than a line per group.
 */
export interface SetDispatch {
  readonly sideSlots: number;
  readonly flowSlots: number;
  /** `stores`: the run's stores of the set's groups that declare one, in group order (absent for a set with none). */
  readonly update?: (state: Float64Array, at: number, packet: GroupPacket, stores?: readonly unknown[]) => void;
  readonly finish: (
    state: Float64Array,
    at: number,
    session: Session,
    row: RowBuilder,
    stores?: readonly unknown[],
  ) => void;
}
