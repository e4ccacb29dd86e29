// Public surface of the packet core. Pure TypeScript: no Node, no DOM.
export * from "./alerts/index.js";
export * from "./browse/index.js";
export * from "./capture/index.js";
export * from "./csv/index.js";
export * from "./dataset/index.js";
export * from "./decode/index.js";
export * from "./edit/index.js";
export { type ErrorCode, type ErrorContext, isTracemillError, TracemillError } from "./errors.js";
export * from "./explore/index.js";
export * from "./features/index.js";
export * from "./flow/index.js";
export * from "./labels/index.js";
export * from "./net/index.js";
export * from "./outputs/index.js";
export * from "./timeline/index.js";
export { CORE_VERSION } from "./version.js";
