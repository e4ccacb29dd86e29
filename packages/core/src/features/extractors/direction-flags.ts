// fpsh_cnt, bpsh_cnt, furg_cnt, burg_cnt: packets with PSH or URG set, per direction (0 for UDP).
import { TcpFlag } from "../../decode/decoded-packet.js";
import { extractor } from "../extractor.js";

interface State {
  fpsh: number;
  bpsh: number;
  furg: number;
  burg: number;
}

export const directionFlags = extractor<State>({
  columns: ["fpsh_cnt", "bpsh_cnt", "furg_cnt", "burg_cnt"],
  create: () => ({ fpsh: 0, bpsh: 0, furg: 0, burg: 0 }),
  init(state) {
    state.fpsh = state.bpsh = state.furg = state.burg = 0;
  },
  update(state, packet) {
    const flags = packet.tcpFlags;
    if (flags === 0) return;
    if (packet.forward) {
      if (flags & TcpFlag.PSH) state.fpsh++;
      if (flags & TcpFlag.URG) state.furg++;
    } else {
      if (flags & TcpFlag.PSH) state.bpsh++;
      if (flags & TcpFlag.URG) state.burg++;
    }
  },
  finish(state, _session, row) {
    row.int(state.fpsh);
    row.int(state.bpsh);
    row.int(state.furg);
    row.int(state.burg);
  },
});
