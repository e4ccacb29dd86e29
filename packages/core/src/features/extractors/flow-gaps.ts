// mean_flowipt, std_flowipt: gaps between consecutive packets of the session in either direction.
import type { Extractor } from "../extractor.js";
import { addMoments, MOMENT_SLOTS, momentDeviation, statCount, statMean } from "../running-stats.js";

/** The previous packet's time + 1 (0: none yet; times are integers ≥ 0), then the gap moments. */
export const flowGaps: Extractor = {
  columns: ["mean_flowipt", "std_flowipt"],
  sideSlots: 0,
  flowSlots: 1 + MOMENT_SLOTS,
  update(s, _side, flow, packet) {
    const previous = s[flow];
    if (previous > 0) addMoments(s, flow + 1, packet.time - (previous - 1));
    s[flow] = packet.time + 1;
  },
  finish(s, _fwd, _bwd, flow, _session, row) {
    if (statCount(s, flow + 1) === 0) {
      row.zeros(2);
      return;
    }
    row.seconds(statMean(s, flow + 1));
    row.seconds(momentDeviation(s, flow + 1));
  },
};
