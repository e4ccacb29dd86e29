// Flow IAT Mean, Std, Max, Min: gaps between consecutive packets of the session (either direction), in microseconds.
import type { FeatureGroup } from "../feature-group.js";
import { addValue, STATS_SLOTS, statCount, statDeviation, statMax, statMean, statMin } from "../running-stats.js";

export const cicFlowGaps: FeatureGroup = {
  name: "cic-flow-gaps",
  kind: "measuring",
  columns: [
    { name: "Flow IAT Mean", type: "real" },
    { name: "Flow IAT Std", type: "real" },
    { name: "Flow IAT Max", type: "real" },
    { name: "Flow IAT Min", type: "real" },
  ],
  sideSlots: 0,
  flowSlots: STATS_SLOTS,
  update(s, _side, flow, packet) {
    if (packet.gap >= 0) addValue(s, flow, packet.gap);
  },
  finish(s, _fwd, _bwd, flow, _session, row) {
    if (statCount(s, flow) === 0) {
      row.zeros(4);
      return;
    }
    row.decimal(statMean(s, flow) / 1e3);
    row.decimal(statDeviation(s, flow) / 1e3);
    row.decimal(statMax(s, flow) / 1e3);
    row.decimal(statMin(s, flow) / 1e3);
  },
};
