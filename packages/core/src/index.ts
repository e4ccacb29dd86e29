// Public surface of the packet core. Pure TypeScript: no Node, no DOM.
export { type ErrorCode, type ErrorContext, isTracemillError, TracemillError } from "./errors.js";
export { CORE_VERSION } from "./version.js";
