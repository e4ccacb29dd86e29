// Fwd PSH Flags, Bwd PSH Flags, Fwd URG Flags, Bwd URG Flags: packets with PSH or URG set, per direction (0 for UDP).
import { TcpFlag } from "../../decode/decoded-packet.js";
import type { FeatureGroup } from "../feature-group.js";

const PSH_BIT = 31 - Math.clz32(TcpFlag.PSH);
const URG_BIT = 31 - Math.clz32(TcpFlag.URG);

/** Per side: PSH count, URG count. */
export const cicDirectionFlags: FeatureGroup = {
  name: "cic-direction-flags",
  kind: "measuring",
  columns: [
    { name: "Fwd PSH Flags", type: "int" },
    { name: "Bwd PSH Flags", type: "int" },
    { name: "Fwd URG Flags", type: "int" },
    { name: "Bwd URG Flags", type: "int" },
  ],
  sideSlots: 2,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    const flags = packet.tcpFlags;
    if ((flags & (TcpFlag.PSH | TcpFlag.URG)) === 0) return;
    s[side] += (flags >>> PSH_BIT) & 1;
    s[side + 1] += (flags >>> URG_BIT) & 1;
  },
  finish(s, fwd, bwd, _flow, _session, row) {
    row.int(s[fwd]);
    row.int(s[bwd]);
    row.int(s[fwd + 1]);
    row.int(s[bwd + 1]);
  },
};
