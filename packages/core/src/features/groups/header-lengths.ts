// total_fhlen, total_bhlen: IP header (with options / extension headers) plus TCP or UDP header, summed per direction.
import type { FeatureGroup } from "../feature-group.js";

export const headerLengths: FeatureGroup = {
  name: "header-lengths",
  kind: "measuring",
  columns: [
    { name: "total_fhlen", type: "int" },
    { name: "total_bhlen", type: "int" },
  ],
  sideSlots: 1,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    s[side] += packet.headerLength;
  },
  finish(s, fwd, bwd, _flow, _session, row) {
    row.int(s[fwd]);
    row.int(s[bwd]);
  },
};
