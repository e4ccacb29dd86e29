// The shapes of a split: the spec, the keys of every row, the result (splits.ts assigns; the methods read the keys).
export type SplitMethod = "time" | "host" | "campaign" | "random";
export const SPLIT_METHODS: readonly SplitMethod[] = ["time", "host", "campaign", "random"];

/** Which addresses tie sessions together in a host split. */
export type HostKey = "both" | "source";

export interface SplitSpec {
  method: SplitMethod;
  /** Split names and fractions in order, e.g. [{name:"train",fraction:0.8},{name:"test",fraction:0.2}]; sum 1. */
  splits: { name: string; fraction: number }[];
  /** Used by random, campaign and host (shuffles and tie-breaks). */
  seed: number;
  /**
   * Host splits only. "both" (default): no address in two splits. "source": sessions grouped by the initiator's
   * address alone, so a responder (a server every client talks to) may appear in several splits.
   */
  hostKey?: HostKey;
}

export interface SplitKeys {
  count: number;
  /** 0 = benign, 1.. = classes (names in classNames). */
  classId: Uint32Array;
  /** Session start, µs since the epoch. */
  startUs: Float64Array;
  /** Interned address ids (dense, from 0) of the initiator (the session key's source) and of the responder. */
  hostA: Uint32Array;
  hostB: Uint32Array;
  /**
   * Dense campaign/window id of the label (schedule window, attack capture, alert signature), -1 none. A time split
   * keeps every group on one side of each cut, so a group spanning the whole capture leaves no cut.
   */
  group: Int32Array;
  /** Class names by id, for the warnings; ids are named "class N" without them. */
  classNames?: readonly string[];
}

export interface SplitResult {
  /** Split index per row. */
  split: Uint8Array;
  /** Rows per split per class id: counts[split][classId]. */
  counts: number[][];
  /** Fractions that could not be met and classes missing from a split, one sentence each. */
  warnings: string[];
  /** Method-specific: cut times for time, group sizes for host, groups per split for campaign. */
  details: Record<string, unknown>;
}
