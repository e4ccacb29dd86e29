// Tracemill's version as the engine reports it (kept equal to the root package.json by a test).
export const TRACEMILL_VERSION = "0.1.0";
