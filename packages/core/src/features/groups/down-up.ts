// downUpRatio: bytes sent backward over bytes sent forward (total_bpktl / total_fpktl), 0 when nothing went forward.
import type { FeatureGroup } from "../feature-group.js";

export const downUp: FeatureGroup = {
  name: "down-up",
  kind: "measuring",
  columns: [{ name: "downUpRatio", type: "real" }],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    row.decimal(session.fwdBytes > 0 ? session.bwdBytes / session.fwdBytes : 0);
  },
};
