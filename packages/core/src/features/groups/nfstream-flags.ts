// NFStream's TCP flag counters (bidirectional_syn_packets … dst2src_fin_packets): packets carrying each flag, both
// ways, then each way; 0 for UDP.
import { TcpFlag } from "../../decode/decoded-packet.js";
import type { FeatureGroup } from "../feature-group.js";

/** NFStream's column order of the flags. */
const FLAGS = [
  ["syn", TcpFlag.SYN],
  ["cwr", TcpFlag.CWR],
  ["ece", TcpFlag.ECE],
  ["urg", TcpFlag.URG],
  ["ack", TcpFlag.ACK],
  ["psh", TcpFlag.PSH],
  ["rst", TcpFlag.RST],
  ["fin", TcpFlag.FIN],
] as const;
/** Each flag bit's column (by bit number): every bit of the byte is one of the eight. */
const COLUMN_OF_BIT = new Uint8Array(8);
FLAGS.forEach(([, flag], column) => {
  COLUMN_OF_BIT[31 - Math.clz32(flag)] = column;
});

/** Per side: the packets carrying each flag, in column order; both ways is their sum. */
export const nfstreamFlags: FeatureGroup = {
  name: "nfstream-flags",
  kind: "measuring",
  columns: ["bidirectional", "src2dst", "dst2src"].flatMap((way) =>
    FLAGS.map(([flag]) => ({ name: `${way}_${flag}_packets`, type: "int" as const })),
  ),
  sideSlots: FLAGS.length,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    // One step per flag set, not a test per flag.
    for (let flags = packet.tcpFlags & 0xff; flags !== 0; flags &= flags - 1) {
      s[side + COLUMN_OF_BIT[31 - Math.clz32(flags & -flags)]]++;
    }
  },
  finish(s, fwd, bwd, _flow, _session, row) {
    for (let i = 0; i < FLAGS.length; i++) row.int(s[fwd + i] + s[bwd + i]);
    row.ints(s, fwd, FLAGS.length);
    row.ints(s, bwd, FLAGS.length);
  },
};
