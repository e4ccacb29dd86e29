// Fwd IAT Total … Bwd IAT Min: gaps between consecutive packets sent by one side, in microseconds.
import type { RowBuilder } from "../../outputs/row-builder.js";
import type { FeatureGroup } from "../feature-group.js";
import { STATS_SLOTS, statCount, statDeviation, statMax, statMean, statMin, statSum } from "../running-stats.js";
import { directionGaps } from "./direction-gaps.js";

/** Per side as the tracemill set's direction-gaps keeps it: the previous packet's time + 1, then the gaps' statistics. */
export const cicDirectionGaps: FeatureGroup = {
  name: "cic-direction-gaps",
  kind: "measuring",
  columns: [
    { name: "Fwd IAT Total", type: "real" },
    { name: "Fwd IAT Mean", type: "real" },
    { name: "Fwd IAT Std", type: "real" },
    { name: "Fwd IAT Max", type: "real" },
    { name: "Fwd IAT Min", type: "real" },
    { name: "Bwd IAT Total", type: "real" },
    { name: "Bwd IAT Mean", type: "real" },
    { name: "Bwd IAT Std", type: "real" },
    { name: "Bwd IAT Max", type: "real" },
    { name: "Bwd IAT Min", type: "real" },
  ],
  sideSlots: 1 + STATS_SLOTS,
  flowSlots: 0,
  update: directionGaps.update,
  finish(s, fwd, bwd, _flow, _session, row) {
    writeGaps(s, fwd + 1, row);
    writeGaps(s, bwd + 1, row);
  },
};

function writeGaps(s: Float64Array, at: number, row: RowBuilder): void {
  if (statCount(s, at) === 0) {
    row.zeros(5);
    return;
  }
  row.decimal(statSum(s, at) / 1e3);
  row.decimal(statMean(s, at) / 1e3);
  row.decimal(statDeviation(s, at) / 1e3);
  row.decimal(statMax(s, at) / 1e3);
  row.decimal(statMin(s, at) / 1e3);
}
