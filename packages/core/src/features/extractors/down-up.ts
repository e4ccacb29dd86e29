// downUpRatio: bytes sent backward over bytes sent forward (total_bpktl / total_fpktl), 0 when nothing went forward.
import type { Extractor } from "../extractor.js";

export const downUp: Extractor = {
  columns: ["downUpRatio"],
  slots: 0,
  finish(_s, _at, session, row) {
    row.decimal(session.fwdBytes > 0 ? session.bwdBytes / session.fwdBytes : 0);
  },
};
