// total_fhlen, total_bhlen: IP header (with options / extension headers) plus TCP or UDP header, summed per direction.
import { extractor } from "../extractor.js";

interface State {
  fwd: number;
  bwd: number;
}

export const headerLengths = extractor<State>({
  columns: ["total_fhlen", "total_bhlen"],
  create: () => ({ fwd: 0, bwd: 0 }),
  init(state) {
    state.fwd = state.bwd = 0;
  },
  update(state, packet) {
    if (packet.forward) state.fwd += packet.headerLength;
    else state.bwd += packet.headerLength;
  },
  finish(state, _session, row) {
    row.int(state.fwd);
    row.int(state.bwd);
  },
});
