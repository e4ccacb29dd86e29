// Fwd Packets/s, Bwd Packets/s: each direction's packets over the duration in seconds, 0 for a zero duration.
import type { FeatureGroup } from "../feature-group.js";

export const cicDirectionRates: FeatureGroup = {
  name: "cic-direction-rates",
  kind: "measuring",
  columns: [
    { name: "Fwd Packets/s", type: "real" },
    { name: "Bwd Packets/s", type: "real" },
  ],
  sideSlots: 0,
  flowSlots: 0,
  finish(_s, _fwd, _bwd, _flow, session, row) {
    const ns = session.lastTime - session.firstTime;
    if (!(ns > 0)) {
      row.zeros(2);
      return;
    }
    row.decimal((session.fwdPackets * 1e9) / ns);
    row.decimal((session.bwdPackets * 1e9) / ns);
  },
};
