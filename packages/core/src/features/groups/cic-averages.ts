// Down/Up Ratio, Average Packet Size, Avg Fwd Segment Size, Avg Bwd Segment Size: backward over forward packets, and
// the mean payload of the session's packets and of each direction's.
import type { FeatureGroup } from "../feature-group.js";

/** Per side: payload bytes (the packets are the session record's). */
export const cicAverages: FeatureGroup = {
  name: "cic-averages",
  kind: "measuring",
  firstPacketDetail: true,
  columns: [
    { name: "Down/Up Ratio", type: "real" },
    { name: "Average Packet Size", type: "real" },
    { name: "Avg Fwd Segment Size", type: "real" },
    { name: "Avg Bwd Segment Size", type: "real" },
  ],
  sideSlots: 1,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    s[side] += packet.payloadLength;
  },
  finish(s, fwd, bwd, _flow, session, row) {
    const fwdPackets = session.fwdPackets;
    const bwdPackets = session.bwdPackets;
    row.decimal(fwdPackets > 0 ? bwdPackets / fwdPackets : 0);
    row.decimal((s[fwd] + s[bwd]) / (fwdPackets + bwdPackets));
    row.decimal(fwdPackets > 0 ? s[fwd] / fwdPackets : 0);
    row.decimal(bwdPackets > 0 ? s[bwd] / bwdPackets : 0);
  },
};
