// fPktsPerSecond, bPktsPerSecond, flowBytesPerSecond: counts over the duration in seconds, 0 for a zero duration.
import type { FeatureGroup } from "../feature-group.js";

export const rates: FeatureGroup = {
  name: "rates",
  kind: "measuring",
  columns: [
    { name: "fPktsPerSecond", type: "real" },
    { name: "bPktsPerSecond", type: "real" },
    { name: "flowBytesPerSecond", type: "real" },
  ],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    const seconds = (session.lastTime - session.firstTime) / 1e9;
    if (!(seconds > 0)) {
      row.zeros(3);
      return;
    }
    row.decimal(session.fwdPackets / seconds);
    row.decimal(session.bwdPackets / seconds);
    row.decimal((session.fwdBytes + session.bwdBytes) / seconds);
  },
};
