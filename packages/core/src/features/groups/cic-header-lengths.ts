// Fwd Header Length, Bwd Header Length: the TCP or UDP header's bytes (as CICFlowMeter counts them, the IP header
// left out), summed per direction.
import type { FeatureGroup } from "../feature-group.js";

export const cicHeaderLengths: FeatureGroup = {
  name: "cic-header-lengths",
  kind: "measuring",
  firstPacketDetail: true,
  columns: [
    { name: "Fwd Header Length", type: "int" },
    { name: "Bwd Header Length", type: "int" },
  ],
  sideSlots: 1,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    s[side] += packet.transportHeaderLength;
  },
  finish(s, fwd, bwd, _flow, _session, row) {
    row.int(s[fwd]);
    row.int(s[bwd]);
  },
};
