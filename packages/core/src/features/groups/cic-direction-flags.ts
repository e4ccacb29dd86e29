// Fwd PSH Flags, Bwd PSH Flags, Fwd URG Flags, Bwd URG Flags: packets with PSH or URG set, per direction (0 for UDP).
import type { FeatureGroup } from "../feature-group.js";
import { directionFlags } from "./direction-flags.js";

/** Per side: PSH count, URG count, counted as the tracemill set's direction-flags counts them. */
export const cicDirectionFlags: FeatureGroup = {
  name: "cic-direction-flags",
  kind: "measuring",
  columns: [
    { name: "Fwd PSH Flags", type: "int" },
    { name: "Bwd PSH Flags", type: "int" },
    { name: "Fwd URG Flags", type: "int" },
    { name: "Bwd URG Flags", type: "int" },
  ],
  sideSlots: 2,
  flowSlots: 0,
  update: directionFlags.update,
  finish(s, fwd, bwd, _flow, _session, row) {
    row.int(s[fwd]);
    row.int(s[bwd]);
    row.int(s[fwd + 1]);
    row.int(s[bwd + 1]);
  },
};
