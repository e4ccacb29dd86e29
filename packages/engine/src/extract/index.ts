// Public surface of the extract capability: the feature CSV of a capture and its run summary.
export { type ExtractOptions, type ExtractSummary, extractFeatures } from "./extract-features.js";
