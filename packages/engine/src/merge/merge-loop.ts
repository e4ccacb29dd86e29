// The merge itself: two timestamp-ordered sources become one ordered stream; attack timestamps are shifted
// by an exact (seconds, nanoseconds) amount. Equal timestamps: the background's packet goes first, as mergecap does.
import type { CapturedPacket } from "@tracemill/core/capture";
import { type MergeSource, pull } from "./merge-source.js";
import { shifted, type Timestamp } from "./timestamp.js";

/**
 * Receives the merged packets in order. Attack packets (input 1) arrive with their timestamps already shifted:
 * the loop rewrites tsSec/tsNsec of the packet object the source returned, in place.
 */
export type MergeSink = (packet: CapturedPacket, input: 0 | 1, source: MergeSource) => void;

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
  let b = shifted(await pull(attacks), shift);
  let sinceCheck = 0;
  while (a || b) {
    if (++sinceCheck === CHECK_EVERY) {
      sinceCheck = 0;
      signal?.throwIfAborted();
      const wait = pace?.();
      if (wait) await wait;
    }
    // Timestamps are compared field by field in place: no number leaves its object, so none is boxed.
    if (a && (!b || a.tsSec < b.tsSec || (a.tsSec === b.tsSec && a.tsNsec <= b.tsNsec))) {
      sink(a, 0, background);
      a = background.next() ?? (await pull(background));
    } else if (b) {
      sink(b, 1, attacks);
      b = shifted(attacks.next() ?? (await pull(attacks)), shift);
    }
  }
}
