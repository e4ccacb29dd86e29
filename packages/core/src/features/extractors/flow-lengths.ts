// mean_flowpktl, std_flowpktl: packet lengths of the whole session, both directions.
import { extractor } from "../extractor.js";
import { RunningStats } from "../running-stats.js";

export const flowLengths = extractor<RunningStats>({
  columns: ["mean_flowpktl", "std_flowpktl"],
  create: () => new RunningStats(),
  init: (state) => state.reset(),
  update(state, packet) {
    state.add(packet.length);
  },
  finish(state, _session, row) {
    row.decimal(state.average);
    row.decimal(state.deviation);
  },
});
