// Public surface of engine/provenance: the record a merge leaves beside its output (which packet came from which
// input), written by the merge capability and read by labelling to label a merged capture exactly.
export {
  PROVENANCE_FORMAT,
  PROVENANCE_VERSION,
  type ProvenanceHeader,
  type ProvenanceInput,
  type ProvenanceRun,
  type ProvenanceTrailer,
} from "./provenance.js";
export { readAttackPacketRanges, readProvenance } from "./provenance-reader.js";
export { ProvenanceWriter } from "./provenance-writer.js";
