// mean_flowpktl, std_flowpktl: packet lengths of the whole session, both directions.
import type { Extractor } from "../extractor.js";
import { addValue, STATS_SLOTS, statDeviation, statMean } from "../running-stats.js";

export const flowLengths: Extractor = {
  columns: ["mean_flowpktl", "std_flowpktl"],
  slots: STATS_SLOTS,
  update(s, at, packet) {
    addValue(s, at, packet.length);
  },
  finish(s, at, _session, row) {
    row.decimal(statMean(s, at));
    row.decimal(statDeviation(s, at));
  },
};
