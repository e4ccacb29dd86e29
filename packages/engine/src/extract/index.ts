// Public surface of the extract capability: the feature CSV, and the one-pass session pipeline other capabilities
// (labelling, IPT series, images) build on to collect their per-session data without reading the capture twice.
export { type ExtractOptions, type ExtractSummary, extractFeatures } from "./extract-features.js";
export { FileDigest, sha256OfFile } from "./file-digest.js";
export {
  type FlowHooks,
  type FlowOptions,
  type FlowResult,
  type IgnoredPackets,
  type PipelineSession,
  runFlowPipeline,
} from "./flow-pipeline.js";
export { type ReadProgress, type ReadResult, readCaptureFile } from "./read-capture-file.js";
export {
  runSessionPass,
  type SessionHooks,
  type SessionPassOptions,
  type SessionPassSummary,
} from "./session-pass.js";
