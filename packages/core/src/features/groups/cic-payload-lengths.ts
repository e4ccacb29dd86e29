// Total Fwd Packets … Flow Packets/s: packet counts and payload-length statistics per direction, then the session's
// payload bytes and packets per second. A packet's "length" in the cic set is its transport payload (CICFlowMeter's).
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

export const cicPayloadLengths: FeatureGroup = {
  name: "cic-payload-lengths",
  // A replayed first packet's payload comes from the feature set's first-packet detail, not from the record.
  kind: "measuring",
  firstPacketDetail: true,
  columns: [
    { name: "Total Fwd Packets", type: "int" },
    { name: "Total Backward Packets", type: "int" },
    { name: "Total Length of Fwd Packets", type: "int" },
    { name: "Total Length of Bwd Packets", type: "int" },
    { name: "Fwd Packet Length Max", type: "int" },
    { name: "Fwd Packet Length Min", type: "int" },
    { name: "Fwd Packet Length Mean", type: "real" },
    { name: "Fwd Packet Length Std", type: "real" },
    { name: "Bwd Packet Length Max", type: "int" },
    { name: "Bwd Packet Length Min", type: "int" },
    { name: "Bwd Packet Length Mean", type: "real" },
    { name: "Bwd Packet Length Std", type: "real" },
    { name: "Flow Bytes/s", type: "real" },
    { name: "Flow Packets/s", type: "real" },
  ],
  sideSlots: STATS_SLOTS,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    addValue(s, side, packet.payloadLength);
  },
  finish(s, fwd, bwd, _flow, session, row) {
    row.int(statCount(s, fwd));
    row.int(statCount(s, bwd));
    row.int(statSum(s, fwd));
    row.int(statSum(s, bwd));
    writeLengths(s, fwd, row);
    writeLengths(s, bwd, row);
    const ns = session.lastTime - session.firstTime;
    // A zero duration (one packet, or all at one instant) has no rate: 0, where CICFlowMeter wrote Infinity or NaN.
    if (!(ns > 0)) {
      row.zeros(2);
      return;
    }
    row.decimal(((statSum(s, fwd) + statSum(s, bwd)) * 1e9) / ns);
    row.decimal(((statCount(s, fwd) + statCount(s, bwd)) * 1e9) / ns);
  },
};

function writeLengths(s: Float64Array, at: number, row: RowBuilder): void {
  if (statCount(s, at) === 0) {
    row.zeros(4);
    return;
  }
  row.int(statMax(s, at));
  row.int(statMin(s, at));
  row.decimal(statMean(s, at));
  row.decimal(statDeviation(s, at));
}
