// Public surface of the merge capability: controlled aggregation of background and attack captures, and the
// reader of the provenance record it leaves beside the merged capture.

export { type MergeOptions, mergeCaptures } from "./merge-captures.js";
export type { PlacementMode, PlacementOptions } from "./placement.js";
export {
  PROVENANCE_FORMAT,
  PROVENANCE_VERSION,
  type ProvenanceHeader,
  type ProvenanceInput,
  type ProvenanceRun,
  type ProvenanceTrailer,
} from "./provenance.js";
export { readAttackPacketRanges, readProvenance } from "./provenance-reader.js";
