// downUpRatio: bytes sent backward over bytes sent forward (total_bpktl / total_fpktl), 0 when nothing went forward.
import type { Extractor } from "../extractor.js";

export const downUp: Extractor = {
  columns: ["downUpRatio"],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    row.decimal(session.fwdBytes > 0 ? session.bwdBytes / session.fwdBytes : 0);
  },
};
