// Packet counts and packet-length statistics per direction (total_fpackets … std_bpktl).
import type { Extractor } from "../extractor.js";
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

const FWD = 0;
const BWD = STATS_SLOTS;

export const directionLengths: Extractor = {
  columns: [
    "total_fpackets",
    "total_bpackets",
    "total_fpktl",
    "total_bpktl",
    "min_fpktl",
    "max_fpktl",
    "mean_fpktl",
    "std_fpktl",
    "min_bpktl",
    "max_bpktl",
    "mean_bpktl",
    "std_bpktl",
  ],
  slots: 2 * STATS_SLOTS,
  update(s, at, packet) {
    addValue(s, packet.forward ? at + FWD : at + BWD, packet.length);
  },
  finish(s, at, _session, row) {
    row.int(statCount(s, at + FWD));
    row.int(statCount(s, at + BWD));
    row.int(statSum(s, at + FWD));
    row.int(statSum(s, at + BWD));
    for (let side = at + FWD; side <= at + BWD; side += STATS_SLOTS) {
      row.int(statMin(s, side));
      row.int(statMax(s, side));
      row.decimal(statMean(s, side));
      row.decimal(statDeviation(s, side));
    }
  },
};
