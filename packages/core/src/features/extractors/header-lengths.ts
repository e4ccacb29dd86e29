// total_fhlen, total_bhlen: IP header (with options / extension headers) plus TCP or UDP header, summed per direction.
import type { Extractor } from "../extractor.js";

export const headerLengths: Extractor = {
  columns: ["total_fhlen", "total_bhlen"],
  slots: 2,
  update(s, at, packet) {
    s[packet.forward ? at : at + 1] += packet.headerLength;
  },
  finish(s, at, _session, row) {
    row.int(s[at]);
    row.int(s[at + 1]);
  },
};
