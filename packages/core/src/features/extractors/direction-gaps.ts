// Inter-packet times per direction (total_fipt … std_bipt): gaps between consecutive packets sent by one side.
import type { FlowPacket } from "../../flow/flow-packet.js";
import type { Extractor } from "../extractor.js";
import { addValue, STATS_SLOTS, statDeviation, statMax, statMean, statMin, statSum } from "../running-stats.js";

/** Per side: packets seen, time of the previous one, then the gap statistics. */
const FWD = 0;
const BWD = 2 + STATS_SLOTS;

/** Takes the packet rather than its time: a double passed to a call V8 does not inline is boxed on the heap. */
function add(s: Float64Array, side: number, packet: FlowPacket): void {
  if (s[side]++ > 0) addValue(s, side + 2, packet.time - s[side + 1]);
  s[side + 1] = packet.time;
}

export const directionGaps: Extractor = {
  columns: [
    "total_fipt",
    "min_fipt",
    "max_fipt",
    "mean_fipt",
    "std_fipt",
    "total_bipt",
    "min_bipt",
    "max_bipt",
    "mean_bipt",
    "std_bipt",
  ],
  slots: 2 * (2 + STATS_SLOTS),
  update(s, at, packet) {
    add(s, packet.forward ? at + FWD : at + BWD, packet);
  },
  finish(s, at, _session, row) {
    for (let side = at + FWD + 2; side <= at + BWD + 2; side += 2 + STATS_SLOTS) {
      row.seconds(statSum(s, side));
      row.seconds(statMin(s, side));
      row.seconds(statMax(s, side));
      row.seconds(statMean(s, side));
      row.seconds(statDeviation(s, side));
    }
  },
};
