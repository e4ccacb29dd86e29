// fpsh_cnt, bpsh_cnt, furg_cnt, burg_cnt: packets with PSH or URG set, per direction (0 for UDP).
import { TcpFlag } from "../../decode/decoded-packet.js";
import type { Extractor } from "../extractor.js";

const FPSH = 0;
const BPSH = 1;
const FURG = 2;
const BURG = 3;

export const directionFlags: Extractor = {
  columns: ["fpsh_cnt", "bpsh_cnt", "furg_cnt", "burg_cnt"],
  slots: 4,
  update(s, at, packet) {
    const flags = packet.tcpFlags;
    if ((flags & (TcpFlag.PSH | TcpFlag.URG)) === 0) return;
    if (flags & TcpFlag.PSH) s[at + (packet.forward ? FPSH : BPSH)]++;
    if (flags & TcpFlag.URG) s[at + (packet.forward ? FURG : BURG)]++;
  },
  finish(s, at, _session, row) {
    for (let i = 0; i < 4; i++) row.int(s[at + i]);
  },
};
