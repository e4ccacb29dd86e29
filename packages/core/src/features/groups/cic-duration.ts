// Flow Duration: first packet to last packet of the session, in microseconds (CICFlowMeter's unit).
import type { FeatureGroup } from "../feature-group.js";

export const cicDuration: FeatureGroup = {
  name: "cic-duration",
  kind: "measuring",
  columns: [{ name: "Flow Duration", type: "real" }],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    row.decimal((session.lastTime - session.firstTime) / 1e3);
  },
};
