// mean_flowipt, std_flowipt: gaps between consecutive packets of the session in either direction.
import type { Extractor } from "../extractor.js";
import { addValue, STATS_SLOTS, statDeviation, statMean } from "../running-stats.js";

/** Packets seen, time of the previous one, then the gap statistics. */
export const flowGaps: Extractor = {
  columns: ["mean_flowipt", "std_flowipt"],
  slots: 2 + STATS_SLOTS,
  update(s, at, packet) {
    if (s[at]++ > 0) addValue(s, at + 2, packet.time - s[at + 1]);
    s[at + 1] = packet.time;
  },
  finish(s, at, _session, row) {
    row.seconds(statMean(s, at + 2));
    row.seconds(statDeviation(s, at + 2));
  },
};
