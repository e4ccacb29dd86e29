// Packet counts and packet-length statistics per direction (total_fpackets … std_bpktl).
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

export const directionLengths: FeatureGroup = {
  name: "direction-lengths",
  kind: "measuring",
  columns: [
    { name: "total_fpackets", type: "int" },
    { name: "total_bpackets", type: "int" },
    { name: "total_fpktl", type: "int" },
    { name: "total_bpktl", type: "int" },
    { name: "min_fpktl", type: "int" },
    { name: "max_fpktl", type: "int" },
    { name: "mean_fpktl", type: "real" },
    { name: "std_fpktl", type: "real" },
    { name: "min_bpktl", type: "int" },
    { name: "max_bpktl", type: "int" },
    { name: "mean_bpktl", type: "real" },
    { name: "std_bpktl", type: "real" },
  ],
  sideSlots: STATS_SLOTS,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    addValue(s, side, packet.length);
  },
  finish(s, fwd, bwd, _flow, _session, row) {
    row.int(statCount(s, fwd));
    row.int(statCount(s, bwd));
    row.int(statSum(s, fwd));
    row.int(statSum(s, bwd));
    writeLengths(s, fwd, row);
    writeLengths(s, bwd, row);
  },
};

function writeLengths(s: Float64Array, at: number, row: RowBuilder): void {
  // No packet this way (most sessions have one direction only): every statistic is 0.
  if (statCount(s, at) === 0) {
    row.zeros(4);
    return;
  }
  row.int(statMin(s, at));
  row.int(statMax(s, at));
  row.decimal(statMean(s, at));
  row.decimal(statDeviation(s, at));
}
