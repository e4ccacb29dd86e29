// The merge itself: two timestamp-ordered sources become one ordered stream; attack timestamps are shifted
// by an exact (seconds, nanoseconds) amount. Equal timestamps: the background's packet goes first, as mergecap does.
import type { CapturedPacket } from "@tracemill/core";
import { type MergeSource, pull } from "./merge-source.js";
import { compareTimestamps, type Timestamp } from "./timestamp.js";

/** Receives the merged packets in order, with the timestamp to write (the attack's already shifted). */
export type MergeSink = (
  packet: CapturedPacket,
  input: 0 | 1,
  tsSec: number,
  tsNsec: number,
  source: MergeSource,
) => void;

const NS = 1_000_000_000;
/** How many packets go by between looks at the abort signal and the writer's back-pressure. */
const CHECK_EVERY = 4096;

export async function mergeOrdered(
  background: MergeSource,
  attacks: MergeSource,
  shift: Timestamp,
  sink: MergeSink,
  options: {
    signal?: AbortSignal;
    /** Called between packets now and then; the merge waits for the promise it may return (back-pressure). */
    pace?: () => Promise<void> | undefined;
  } = {},
): Promise<void> {
  const { signal, pace } = options;
  let a = await pull(background);
  let b = await pull(attacks);
  let bSec = 0;
  let bNsec = 0;
  const shiftB = (packet: CapturedPacket) => {
    bSec = packet.tsSec + shift.sec;
    bNsec = packet.tsNsec + shift.nsec;
    if (bNsec >= NS) {
      bNsec -= NS;
      bSec += 1;
    }
  };
  if (b) shiftB(b);
  let sinceCheck = 0;
  while (a || b) {
    if (++sinceCheck === CHECK_EVERY) {
      sinceCheck = 0;
      signal?.throwIfAborted();
      const wait = pace?.();
      if (wait) await wait;
    }
    if (a && (!b || compareTimestamps(a.tsSec, a.tsNsec, bSec, bNsec) <= 0)) {
      sink(a, 0, a.tsSec, a.tsNsec, background);
      a = background.next() ?? (await pull(background));
    } else if (b) {
      sink(b, 1, bSec, bNsec, attacks);
      b = attacks.next() ?? (await pull(attacks));
      if (b) shiftB(b);
    }
  }
}
