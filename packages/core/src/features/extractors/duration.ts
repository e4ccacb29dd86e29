// flowduration: first packet to last packet of the session, in seconds.
import { extractor } from "../extractor.js";

export const duration = extractor<null>({
  columns: ["flowduration"],
  create: () => null,
  init: () => {},
  finish(_state, session, row) {
    row.seconds(session.lastTime - session.firstTime);
  },
});
