// flow_fin … flow_ece: packets of the session (either direction) carrying each TCP flag; 0 for UDP.
import { TcpFlag } from "../../decode/decoded-packet.js";
import type { FeatureGroup } from "../feature-group.js";

/** Column order of the flags, as in the CSV. */
const FLAGS = [TcpFlag.FIN, TcpFlag.SYN, TcpFlag.RST, TcpFlag.ACK, TcpFlag.URG, TcpFlag.CWR, TcpFlag.ECE];
/** The flags counted (all but PSH), and each flag bit's column (by bit number). */
const COUNTED = FLAGS.reduce((all, flag) => all | flag, 0);
const COLUMN_OF_BIT = new Uint8Array(8);
FLAGS.forEach((flag, column) => {
  COLUMN_OF_BIT[31 - Math.clz32(flag)] = column;
});

export const flagCounts: FeatureGroup = {
  name: "flag-counts",
  kind: "measuring",
  columns: [
    { name: "flow_fin", type: "int" },
    { name: "flow_syn", type: "int" },
    { name: "flow_rst", type: "int" },
    { name: "flow_ack", type: "int" },
    { name: "flow_urg", type: "int" },
    { name: "flow_cwr", type: "int" },
    { name: "flow_ece", type: "int" },
  ],
  sideSlots: 0,
  flowSlots: FLAGS.length,
  update(s, _side, at, packet) {
    // One step per flag set (most TCP packets carry ACK alone), not a test per counted flag.
    for (let flags = packet.tcpFlags & COUNTED; flags !== 0; flags &= flags - 1) {
      s[at + COLUMN_OF_BIT[31 - Math.clz32(flags & -flags)]]++;
    }
  },
  finish(s, _fwd, _bwd, at, _session, row) {
    row.ints(s, at, FLAGS.length);
  },
};
