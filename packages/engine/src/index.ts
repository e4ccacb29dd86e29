// Public surface of the engine: one module per capability, plus the shared capability types.
export type {
  CapabilityResult,
  OutputFile,
  OutputKind,
  Progress,
  ProgressCallback,
  RunOptions,
} from "./capability.js";
export { TRACEMILL_VERSION } from "./version.js";
