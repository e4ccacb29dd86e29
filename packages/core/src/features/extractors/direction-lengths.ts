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
    row.int(statMin(s, fwd));
    row.int(statMax(s, fwd));
    row.decimal(statMean(s, fwd));
    row.decimal(statDeviation(s, fwd));
    row.int(statMin(s, bwd));
    row.int(statMax(s, bwd));
    row.decimal(statMean(s, bwd));
    row.decimal(statDeviation(s, bwd));
  },
};
