// flow_fin … flow_ece: packets of the session (either direction) carrying each TCP flag; 0 for UDP.
import { TcpFlag } from "../../decode/decoded-packet.js";
import type { Extractor } from "../extractor.js";

/** Column order of the flags, as in the CSV. */
const FLAGS = [TcpFlag.FIN, TcpFlag.SYN, TcpFlag.RST, TcpFlag.ACK, TcpFlag.URG, TcpFlag.CWR, TcpFlag.ECE];

export const flagCounts: Extractor = {
  columns: ["flow_fin", "flow_syn", "flow_rst", "flow_ack", "flow_urg", "flow_cwr", "flow_ece"],
  sideSlots: 0,
  flowSlots: FLAGS.length,
  update(s, _side, at, packet) {
    const flags = packet.tcpFlags;
    if (flags === 0) return;
    if (flags & TcpFlag.FIN) s[at]++;
    if (flags & TcpFlag.SYN) s[at + 1]++;
    if (flags & TcpFlag.RST) s[at + 2]++;
    if (flags & TcpFlag.ACK) s[at + 3]++;
    if (flags & TcpFlag.URG) s[at + 4]++;
    if (flags & TcpFlag.CWR) s[at + 5]++;
    if (flags & TcpFlag.ECE) s[at + 6]++;
  },
  finish(s, _fwd, _bwd, at, _session, row) {
    row.ints(s, at, FLAGS.length);
  },
};
