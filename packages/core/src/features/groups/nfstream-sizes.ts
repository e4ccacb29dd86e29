// NFStream's packet size statistics (bidirectional_min_ps … dst2src_max_ps): min, mean, sample deviation and max of
// the packets' lengths, both ways, then each way.
import type { RowBuilder } from "../../outputs/row-builder.js";
import type { FeatureGroup } from "../feature-group.js";
import { addValue, STATS_SLOTS, statCount, statDeviation, statMax, statMean, statMin } from "../running-stats.js";

export const nfstreamSizes: FeatureGroup = {
  name: "nfstream-sizes",
  kind: "measuring",
  columns: ["bidirectional", "src2dst", "dst2src"].flatMap((way) => [
    { name: `${way}_min_ps`, type: "int" as const },
    { name: `${way}_mean_ps`, type: "real" as const },
    { name: `${way}_stddev_ps`, type: "real" as const },
    { name: `${way}_max_ps`, type: "int" as const },
  ]),
  sideSlots: STATS_SLOTS,
  flowSlots: STATS_SLOTS,
  update(s, side, flow, packet) {
    addValue(s, side, packet.length);
    addValue(s, flow, packet.length);
  },
  finish(s, fwd, bwd, flow, _session, row) {
    writeSizes(s, flow, row);
    writeSizes(s, fwd, row);
    writeSizes(s, bwd, row);
  },
};

function writeSizes(s: Float64Array, at: number, row: RowBuilder): void {
  if (statCount(s, at) === 0) {
    row.zeros(4);
    return;
  }
  row.int(statMin(s, at));
  row.decimal(statMean(s, at));
  row.decimal(statDeviation(s, at));
  row.int(statMax(s, at));
}
