// Public surface of engine/pass, the one pass the capabilities extract, label, ipt and images build on: read →
// decode → fragments → flow table → feature extractors, with hooks for per-session work, and the feature CSV and run
// summary written from it.
export { type CheckedFlowOptions, checkedFlowOptions, cicCompatRefused, type FlowOptions } from "./flow-options.js";
export { type FlowHooks, type PipelineSession, runFlowPipeline } from "./flow-pipeline.js";
export type { FlowResult, IgnoredPackets } from "./flow-result.js";
export { PASS_PROCESS_FLAGS } from "./process-flags.js";
export {
  type EachInput,
  type ReadProgress,
  type ReadResult,
  readCaptureFile,
  readCaptureFiles,
} from "./read-inputs.js";
export {
  type CellsTarget,
  type CsvTarget,
  type InputSummary,
  NO_DIGEST_NOTE,
  type OutputFormat,
  type RowsOutput,
  runSessionPass,
  type SessionHooks,
  type SessionPassOptions,
  type SessionPassSummary,
  type SummaryBase,
} from "./session-pass.js";
