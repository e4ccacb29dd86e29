// Packet counts and packet-length statistics per direction (total_fpackets … std_bpktl).
import { extractor } from "../extractor.js";
import { RunningStats } from "../running-stats.js";

interface State {
  fwd: RunningStats;
  bwd: RunningStats;
}

export const directionLengths = extractor<State>({
  columns: [
    "total_fpackets",
    "total_bpackets",
    "total_fpktl",
    "total_bpktl",
    "min_fpktl",
    "max_fpktl",
    "mean_fpktl",
    "std_fpktl",
    "min_bpktl",
    "max_bpktl",
    "mean_bpktl",
    "std_bpktl",
  ],
  create: () => ({ fwd: new RunningStats(), bwd: new RunningStats() }),
  init(state) {
    state.fwd.reset();
    state.bwd.reset();
  },
  update(state, packet) {
    (packet.forward ? state.fwd : state.bwd).add(packet.length);
  },
  finish({ fwd, bwd }, _session, row) {
    row.int(fwd.count);
    row.int(bwd.count);
    row.int(fwd.sum);
    row.int(bwd.sum);
    for (const side of [fwd, bwd]) {
      row.int(side.min);
      row.int(side.max);
      row.decimal(side.average);
      row.decimal(side.deviation);
    }
  },
});
