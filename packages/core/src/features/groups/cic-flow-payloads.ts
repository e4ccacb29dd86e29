// Min Packet Length … Packet Length Variance: payload lengths of every packet of the session, both directions.
import type { FeatureGroup } from "../feature-group.js";
import { addValue, STATS_SLOTS, statDeviation, statMax, statMean, statMin } from "../running-stats.js";

export const cicFlowPayloads: FeatureGroup = {
  name: "cic-flow-payloads",
  kind: "measuring",
  firstPacketDetail: true,
  columns: [
    { name: "Min Packet Length", type: "int" },
    { name: "Max Packet Length", type: "int" },
    { name: "Packet Length Mean", type: "real" },
    { name: "Packet Length Std", type: "real" },
    { name: "Packet Length Variance", type: "real" },
  ],
  sideSlots: 0,
  flowSlots: STATS_SLOTS,
  update(s, _side, flow, packet) {
    addValue(s, flow, packet.payloadLength);
  },
  finish(s, _fwd, _bwd, flow, _session, row) {
    const deviation = statDeviation(s, flow);
    row.int(statMin(s, flow));
    row.int(statMax(s, flow));
    row.decimal(statMean(s, flow));
    row.decimal(deviation);
    row.decimal(deviation * deviation);
  },
};
