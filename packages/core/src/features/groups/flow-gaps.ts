// mean_flowipt, std_flowipt: gaps between consecutive packets of the session in either direction.
import type { FeatureGroup } from "../feature-group.js";
import { addMoments, MOMENT_SLOTS, momentDeviation, statCount, statMean } from "../running-stats.js";

/** The gap moments; the gap itself comes with the packet (the flow table has the session's previous time). */
export const flowGaps: FeatureGroup = {
  name: "flow-gaps",
  kind: "measuring",
  columns: [
    { name: "mean_flowipt", type: "real" },
    { name: "std_flowipt", type: "real" },
  ],
  sideSlots: 0,
  flowSlots: MOMENT_SLOTS,
  update(s, _side, flow, packet) {
    if (packet.gap >= 0) addMoments(s, flow, packet.gap);
  },
  finish(s, _fwd, _bwd, flow, _session, row) {
    if (statCount(s, flow) === 0) {
      row.zeros(2);
      return;
    }
    row.seconds(statMean(s, flow));
    row.seconds(momentDeviation(s, flow));
  },
};
