// FIN Flag Count … ECE Flag Count: packets of the session (either direction) carrying each TCP flag; 0 for UDP.
// "CWE Flag Count" is the CIC-IDS2017 header's name for the CWR count.
import { TcpFlag } from "../../decode/decoded-packet.js";
import type { FeatureGroup } from "../feature-group.js";

/** Column order of the flags, as in the CIC-IDS2017 header. */
const FLAGS = [TcpFlag.FIN, TcpFlag.SYN, TcpFlag.RST, TcpFlag.PSH, TcpFlag.ACK, TcpFlag.URG, TcpFlag.CWR, TcpFlag.ECE];
/** Each flag bit's column (by bit number). */
const COLUMN_OF_BIT = new Uint8Array(8);
FLAGS.forEach((flag, column) => {
  COLUMN_OF_BIT[31 - Math.clz32(flag)] = column;
});

export const cicFlagCounts: FeatureGroup = {
  name: "cic-flag-counts",
  kind: "measuring",
  columns: [
    { name: "FIN Flag Count", type: "int" },
    { name: "SYN Flag Count", type: "int" },
    { name: "RST Flag Count", type: "int" },
    { name: "PSH Flag Count", type: "int" },
    { name: "ACK Flag Count", type: "int" },
    { name: "URG Flag Count", type: "int" },
    { name: "CWE Flag Count", type: "int" },
    { name: "ECE Flag Count", type: "int" },
  ],
  sideSlots: 0,
  flowSlots: FLAGS.length,
  update(s, _side, at, packet) {
    // One step per flag set, not a test per flag.
    for (let flags = packet.tcpFlags & 0xff; flags !== 0; flags &= flags - 1) {
      s[at + COLUMN_OF_BIT[31 - Math.clz32(flags & -flags)]]++;
    }
  },
  finish(s, _fwd, _bwd, at, _session, row) {
    row.ints(s, at, FLAGS.length);
  },
};
