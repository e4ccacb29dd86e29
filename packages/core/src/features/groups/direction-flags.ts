// fpsh_cnt, bpsh_cnt, furg_cnt, burg_cnt: packets with PSH or URG set, per direction (0 for UDP).
import { TcpFlag } from "../../decode/decoded-packet.js";
import type { FeatureGroup } from "../feature-group.js";

const PSH_BIT = 31 - Math.clz32(TcpFlag.PSH);
const URG_BIT = 31 - Math.clz32(TcpFlag.URG);

/** Per side: PSH count, URG count. */
export const directionFlags: FeatureGroup = {
  name: "direction-flags",
  kind: "measuring",
  columns: [
    { name: "fpsh_cnt", type: "int" },
    { name: "bpsh_cnt", type: "int" },
    { name: "furg_cnt", type: "int" },
    { name: "burg_cnt", type: "int" },
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
    if (s[fwd] + s[fwd + 1] + s[bwd] + s[bwd + 1] === 0) {
      row.zeros(4);
      return;
    }
    row.int(s[fwd]);
    row.int(s[bwd]);
    row.int(s[fwd + 1]);
    row.int(s[bwd + 1]);
  },
};
