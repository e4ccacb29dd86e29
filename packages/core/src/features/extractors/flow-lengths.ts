// mean_flowpktl, std_flowpktl: packet lengths of the whole session, both directions.
import type { Extractor } from "../extractor.js";
import { addMoments, MOMENT_SLOTS, momentDeviation, statMean } from "../running-stats.js";

export const flowLengths: Extractor = {
  columns: ["mean_flowpktl", "std_flowpktl"],
  sideSlots: 0,
  flowSlots: MOMENT_SLOTS,
  update(s, _side, flow, packet) {
    addMoments(s, flow, packet.length);
  },
  finish(s, _fwd, _bwd, flow, _session, row) {
    row.decimal(statMean(s, flow));
    row.decimal(momentDeviation(s, flow));
  },
};
