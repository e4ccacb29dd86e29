// flowduration: first packet to last packet of the session, in seconds.
import type { FeatureGroup } from "../feature-group.js";

export const duration: FeatureGroup = {
  name: "duration",
  kind: "measuring",
  columns: [{ name: "flowduration", type: "real" }],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    row.seconds(session.lastTime - session.firstTime);
  },
};
