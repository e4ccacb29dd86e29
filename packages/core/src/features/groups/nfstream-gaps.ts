// NFStream's inter-arrival times (bidirectional_min_piat_ms … dst2src_max_piat_ms): min, mean, sample deviation and
// max of the gaps between consecutive packets, both ways, then each way, in whole milliseconds as NFStream takes
// them (the difference of the two packets' times truncated to the millisecond).
import type { RowBuilder } from "../../outputs/row-builder.js";
import type { FeatureGroup } from "../feature-group.js";
import { addValue, STATS_SLOTS, statCount, statDeviation, statMax, statMean, statMin } from "../running-stats.js";

const NS_PER_MS = 1e6;

/** Per side and for the session: the previous packet's millisecond + 1 (0: none yet), then the gaps' statistics. */
export const nfstreamGaps: FeatureGroup = {
  name: "nfstream-gaps",
  kind: "measuring",
  columns: ["bidirectional", "src2dst", "dst2src"].flatMap((way) => [
    { name: `${way}_min_piat_ms`, type: "int" as const },
    { name: `${way}_mean_piat_ms`, type: "real" as const },
    { name: `${way}_stddev_piat_ms`, type: "real" as const },
    { name: `${way}_max_piat_ms`, type: "int" as const },
  ]),
  sideSlots: 1 + STATS_SLOTS,
  flowSlots: 1 + STATS_SLOTS,
  update(s, side, flow, packet) {
    const ms = Math.floor(packet.time / NS_PER_MS);
    const previous = s[flow];
    if (previous > 0) addValue(s, flow + 1, ms - (previous - 1));
    s[flow] = ms + 1;
    const before = s[side];
    if (before > 0) addValue(s, side + 1, ms - (before - 1));
    s[side] = ms + 1;
  },
  finish(s, fwd, bwd, flow, _session, row) {
    writeGaps(s, flow + 1, row);
    writeGaps(s, fwd + 1, row);
    writeGaps(s, bwd + 1, row);
  },
};

function writeGaps(s: Float64Array, at: number, row: RowBuilder): void {
  // No gap (fewer than two packets that way): every statistic is 0, as NFStream's.
  if (statCount(s, at) === 0) {
    row.zeros(4);
    return;
  }
  row.int(statMin(s, at));
  row.decimal(statMean(s, at));
  row.decimal(statDeviation(s, at));
  row.int(statMax(s, at));
}
