// flow_fin … flow_ece: packets of the session (either direction) carrying each TCP flag; 0 for UDP.
import { TcpFlag } from "../../decode/decoded-packet.js";
import { extractor } from "../extractor.js";

/** Column order of the flags, as in the CSV. */
const FLAGS = [TcpFlag.FIN, TcpFlag.SYN, TcpFlag.RST, TcpFlag.ACK, TcpFlag.URG, TcpFlag.CWR, TcpFlag.ECE];

export const flagCounts = extractor<Uint32Array>({
  columns: ["flow_fin", "flow_syn", "flow_rst", "flow_ack", "flow_urg", "flow_cwr", "flow_ece"],
  create: () => new Uint32Array(FLAGS.length),
  init: (state) => state.fill(0),
  update(state, packet) {
    const flags = packet.tcpFlags;
    if (flags === 0) return;
    for (let i = 0; i < FLAGS.length; i++) if (flags & FLAGS[i]) state[i]++;
  },
  finish(state, _session, row) {
    for (let i = 0; i < FLAGS.length; i++) row.int(state[i]);
  },
});
