// flowduration: first packet to last packet of the session, in seconds.
import type { Extractor } from "../extractor.js";

export const duration: Extractor = {
  columns: ["flowduration"],
  slots: 0,
  finish(_s, _at, session, row) {
    row.seconds(session.lastTime - session.firstTime);
  },
};
