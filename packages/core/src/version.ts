// The version of Tracemill's packet core, written into run summaries for provenance.
export const CORE_VERSION = "0.1.0";
