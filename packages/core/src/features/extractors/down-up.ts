// downUpRatio: bytes sent backward over bytes sent forward (total_bpktl / total_fpktl), 0 when nothing went forward.
import { extractor } from "../extractor.js";

export const downUp = extractor<null>({
  columns: ["downUpRatio"],
  create: () => null,
  init: () => {},
  finish(_state, session, row) {
    row.decimal(session.fwdBytes > 0 ? session.bwdBytes / session.fwdBytes : 0);
  },
});
