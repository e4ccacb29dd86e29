// mean_flowpktl, std_flowpktl: packet lengths of the whole session, both directions.
import type { FeatureGroup } from "../feature-group.js";
import { addMoments, MOMENT_SLOTS, momentDeviation, statMean } from "../running-stats.js";

export const flowLengths: FeatureGroup = {
  name: "flow-lengths",
  kind: "measuring",
  columns: [
    { name: "mean_flowpktl", type: "real" },
    { name: "std_flowpktl", type: "real" },
  ],
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
