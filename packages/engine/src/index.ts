// Public surface of the engine: each capability's module, the shared layers they are built on (input, pass,
// hashing, output, labels, provenance, suricata), and the shared capability types. docs/architecture.md maps them.

export * from "./browse/index.js";
export type {
  CapabilityResult,
  OutputFile,
  OutputKind,
  Progress,
  ProgressCallback,
  RunOptions,
} from "./capability.js";
export * from "./combine/index.js";
export * from "./explore/index.js";
export * from "./extract/index.js";
export * from "./hashing/index.js";
export * from "./images/index.js";
export * from "./info/index.js";
export * from "./input/index.js";
export * from "./ipt/index.js";
export * from "./label/index.js";
export * from "./labels/index.js";
export * from "./merge/index.js";
export * from "./output/index.js";
export * from "./pass/index.js";
export * from "./provenance/index.js";
export * from "./result-warnings/index.js";
export * from "./sanitize/index.js";
export * from "./suricata/index.js";
export { TRACEMILL_VERSION } from "./version.js";
