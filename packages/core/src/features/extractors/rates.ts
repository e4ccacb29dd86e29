// fPktsPerSecond, bPktsPerSecond, flowBytesPerSecond: counts over the duration in seconds, 0 for a zero duration.
import { extractor } from "../extractor.js";

export const rates = extractor<null>({
  columns: ["fPktsPerSecond", "bPktsPerSecond", "flowBytesPerSecond"],
  create: () => null,
  init: () => {},
  finish(_state, session, row) {
    const seconds = (session.lastTime - session.firstTime) / 1e9;
    row.decimal(seconds > 0 ? session.fwdPackets / seconds : 0);
    row.decimal(seconds > 0 ? session.bwdPackets / seconds : 0);
    row.decimal(seconds > 0 ? (session.fwdBytes + session.bwdBytes) / seconds : 0);
  },
});
