// flowduration: first packet to last packet of the session, in seconds.
import type { Extractor } from "../extractor.js";

export const duration: Extractor = {
  columns: ["flowduration"],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    row.seconds(session.lastTime - session.firstTime);
  },
};
