// Inter-packet times per direction (total_fipt … std_bipt): gaps between consecutive packets sent by one side.
import type { RowBuilder } from "../../outputs/row-builder.js";
import type { FeatureGroup } from "../feature-group.js";
import {
  addValue,
  STATS_SLOTS,
  statCount,
  statDeviation,
  statMax,
  statMean,
  statMin,
  statSum,
} from "../running-stats.js";

/** Per side: the previous packet's time + 1 (0: none yet; times are integers ≥ 0), then the gap statistics. */
export const directionGaps: FeatureGroup = {
  name: "direction-gaps",
  kind: "measuring",
  columns: [
    { name: "total_fipt", type: "real" },
    { name: "min_fipt", type: "real" },
    { name: "max_fipt", type: "real" },
    { name: "mean_fipt", type: "real" },
    { name: "std_fipt", type: "real" },
    { name: "total_bipt", type: "real" },
    { name: "min_bipt", type: "real" },
    { name: "max_bipt", type: "real" },
    { name: "mean_bipt", type: "real" },
    { name: "std_bipt", type: "real" },
  ],
  sideSlots: 1 + STATS_SLOTS,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    const previous = s[side];
    if (previous > 0) addValue(s, side + 1, packet.time - (previous - 1));
    s[side] = packet.time + 1;
  },
  finish(s, fwd, bwd, _flow, _session, row) {
    writeGaps(s, fwd + 1, row);
    writeGaps(s, bwd + 1, row);
  },
};

function writeGaps(s: Float64Array, at: number, row: RowBuilder): void {
  // No gap (one packet or none this way, as in most sessions): every statistic is 0.
  if (statCount(s, at) === 0) {
    row.zeros(5);
    return;
  }
  row.seconds(statSum(s, at));
  row.seconds(statMin(s, at));
  row.seconds(statMax(s, at));
  row.seconds(statMean(s, at));
  row.seconds(statDeviation(s, at));
}
