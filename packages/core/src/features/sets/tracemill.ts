// The tracemill set: SPEC.md §3's columns after the session key, in CSV order (`--features tracemill`, the default).
import type { FeatureSetDefinition } from "../feature-group.js";
import { directionFlags } from "../groups/direction-flags.js";
import { directionGaps } from "../groups/direction-gaps.js";
import { directionLengths } from "../groups/direction-lengths.js";
import { downUp } from "../groups/down-up.js";
import { duration } from "../groups/duration.js";
import { flagCounts } from "../groups/flag-counts.js";
import { flowGaps } from "../groups/flow-gaps.js";
import { flowLengths } from "../groups/flow-lengths.js";
import { headerLengths } from "../groups/header-lengths.js";
import { rates } from "../groups/rates.js";

export const tracemill: FeatureSetDefinition = {
  name: "tracemill",
  description: "Tracemill's 44 session features: counts, lengths, gaps, flags, header lengths and rates, per direction",
  groups: [
    duration,
    directionLengths,
    directionGaps,
    directionFlags,
    headerLengths,
    rates,
    flowLengths,
    flowGaps,
    flagCounts,
    downUp,
  ],
};
