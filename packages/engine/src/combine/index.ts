// Public surface of engine/combine: joining the outputs of a job's parts (one per capture) into the job's outputs.
export { type CombinedResult, combinableKind, combineParts, type PartResult } from "./combine-parts.js";
export { partFileName } from "./part-names.js";
