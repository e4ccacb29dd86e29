// Fwd Header Length.1: CIC-IDS2017's second copy of Fwd Header Length, for `--cic-compat` rows. Its own slot, since a
// group reads only its own slots: the forward TCP or UDP header bytes summed again (cic-header-lengths.ts).
import type { FeatureGroup } from "../feature-group.js";

export const cicFwdHeaderCopy: FeatureGroup = {
  name: "cic-fwd-header-copy",
  kind: "measuring",
  firstPacketDetail: true,
  columns: [{ name: "Fwd Header Length.1", type: "int" }],
  sideSlots: 1,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    s[side] += packet.transportHeaderLength;
  },
  finish(s, fwd, _bwd, _flow, _session, row) {
    row.int(s[fwd]);
  },
};
