// Public surface of the engine: one module per capability, plus the shared capability types.
export type {
  CapabilityResult,
  OutputFile,
  OutputKind,
  Progress,
  ProgressCallback,
  RunOptions,
} from "./capability.js";
export * from "./capture/index.js";
export * from "./extract/index.js";
export * from "./images/index.js";
export * from "./ipt/index.js";
export * from "./label/index.js";
export * from "./merge/index.js";
export * from "./sanitize/index.js";
export { PASS_PROCESS_FLAGS } from "./threads/process-flags.js";
export { workersRetired } from "./threads/retire.js";
export { TRACEMILL_VERSION } from "./version.js";
