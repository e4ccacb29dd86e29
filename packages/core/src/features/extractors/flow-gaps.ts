// mean_flowipt, std_flowipt: gaps between consecutive packets of the session in either direction.
import { extractor } from "../extractor.js";
import { RunningStats } from "../running-stats.js";

interface State {
  gaps: RunningStats;
  last: number;
}

export const flowGaps = extractor<State>({
  columns: ["mean_flowipt", "std_flowipt"],
  create: () => ({ gaps: new RunningStats(), last: -1 }),
  init(state) {
    state.gaps.reset();
    state.last = -1;
  },
  update(state, packet) {
    if (state.last >= 0) state.gaps.add(packet.time - state.last);
    state.last = packet.time;
  },
  finish(state, _session, row) {
    row.seconds(state.gaps.average);
    row.seconds(state.gaps.deviation);
  },
});
