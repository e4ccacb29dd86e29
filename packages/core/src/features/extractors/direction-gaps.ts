// Inter-packet times per direction (total_fipt … std_bipt): gaps between consecutive packets sent by one side.
import { extractor } from "../extractor.js";
import { RunningStats } from "../running-stats.js";

interface State {
  fwd: RunningStats;
  bwd: RunningStats;
  /** Time of the side's previous packet, or -1 before its first. */
  lastFwd: number;
  lastBwd: number;
}

export const directionGaps = extractor<State>({
  columns: [
    "total_fipt",
    "min_fipt",
    "max_fipt",
    "mean_fipt",
    "std_fipt",
    "total_bipt",
    "min_bipt",
    "max_bipt",
    "mean_bipt",
    "std_bipt",
  ],
  create: () => ({ fwd: new RunningStats(), bwd: new RunningStats(), lastFwd: -1, lastBwd: -1 }),
  init(state) {
    state.fwd.reset();
    state.bwd.reset();
    state.lastFwd = -1;
    state.lastBwd = -1;
  },
  update(state, packet) {
    const time = packet.time;
    if (packet.forward) {
      if (state.lastFwd >= 0) state.fwd.add(time - state.lastFwd);
      state.lastFwd = time;
    } else {
      if (state.lastBwd >= 0) state.bwd.add(time - state.lastBwd);
      state.lastBwd = time;
    }
  },
  finish({ fwd, bwd }, _session, row) {
    for (const side of [fwd, bwd]) {
      row.seconds(side.sum);
      row.seconds(side.min);
      row.seconds(side.max);
      row.seconds(side.average);
      row.seconds(side.deviation);
    }
  },
});
