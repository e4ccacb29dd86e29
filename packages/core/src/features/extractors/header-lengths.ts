// total_fhlen, total_bhlen: IP header (with options / extension headers) plus TCP or UDP header, summed per direction.
import type { Extractor } from "../extractor.js";

export const headerLengths: Extractor = {
  columns: ["total_fhlen", "total_bhlen"],
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
