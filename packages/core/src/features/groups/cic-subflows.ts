// Subflow Fwd Packets … Subflow Bwd Bytes: each direction's packets and payload bytes per subflow. A subflow ends
// where the session is silent for more than SUBFLOW_GAP_NS (CICFlowMeter's 1 s), so a session has one subflow more
// than it has such gaps.
import type { FeatureGroup } from "../feature-group.js";

export const SUBFLOW_GAP_NS = 1e9;

/** Per side: payload bytes; session-wide: gaps longer than SUBFLOW_GAP_NS. */
export const cicSubflows: FeatureGroup = {
  name: "cic-subflows",
  kind: "measuring",
  firstPacketDetail: true,
  columns: [
    { name: "Subflow Fwd Packets", type: "real" },
    { name: "Subflow Fwd Bytes", type: "real" },
    { name: "Subflow Bwd Packets", type: "real" },
    { name: "Subflow Bwd Bytes", type: "real" },
  ],
  sideSlots: 1,
  flowSlots: 1,
  update(s, side, flow, packet) {
    s[side] += packet.payloadLength;
    if (packet.gap > SUBFLOW_GAP_NS) s[flow]++;
  },
  finish(s, fwd, bwd, flow, session, row) {
    const subflows = s[flow] + 1;
    row.decimal(session.fwdPackets / subflows);
    row.decimal(s[fwd] / subflows);
    row.decimal(session.bwdPackets / subflows);
    row.decimal(s[bwd] / subflows);
  },
};
