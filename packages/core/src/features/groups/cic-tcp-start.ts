// Init_Win_bytes_forward, Init_Win_bytes_backward, act_data_pkt_fwd, min_seg_size_forward: the TCP window field of
// each direction's first packet (as sent, unscaled; −1 without a packet that way, and for UDP, as in the published
// CIC-IDS2017 CSVs: 0 is a real window, a zero window), the forward packets carrying payload, and the smallest TCP or
// UDP header (as Fwd Header Length counts it) of a forward packet.
import type { FeatureGroup } from "../feature-group.js";

/** Per side: first window + 1 (0: no packet yet), packets with payload, smallest header + 1 (0: none yet). */
export const cicTcpStart: FeatureGroup = {
  name: "cic-tcp-start",
  kind: "measuring",
  firstPacketDetail: true,
  columns: [
    { name: "Init_Win_bytes_forward", type: "int" },
    { name: "Init_Win_bytes_backward", type: "int" },
    { name: "act_data_pkt_fwd", type: "int" },
    { name: "min_seg_size_forward", type: "int" },
  ],
  sideSlots: 3,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    if (s[side] === 0) s[side] = packet.window + 1;
    if (packet.payloadLength > 0) s[side + 1]++;
    const header = packet.transportHeaderLength + 1;
    if (s[side + 2] === 0 || header < s[side + 2]) s[side + 2] = header;
  },
  finish(s, fwd, bwd, _flow, session, row) {
    const tcp = session.protocol === 6;
    // signed(): the column is an int in a typed output too (Parquet), where text would not fit its cell.
    row.signed(tcp && s[fwd] > 0 ? s[fwd] - 1 : -1);
    row.signed(tcp && s[bwd] > 0 ? s[bwd] - 1 : -1);
    row.int(s[fwd + 1]);
    row.int(s[fwd + 2] > 0 ? s[fwd + 2] - 1 : 0);
  },
};
