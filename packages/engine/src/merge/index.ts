// Public surface of the merge capability: controlled aggregation of background and attack captures, with the
// provenance record (engine/provenance) beside the merged capture.
export { type MergeOptions, mergeCaptures } from "./merge-captures.js";
export type { PlacementMode, PlacementOptions } from "./placement.js";
