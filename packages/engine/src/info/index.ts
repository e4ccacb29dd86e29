// Public surface of the info capability (`tracemill info`): what a capture holds, from one streaming pass.
export { type CaptureSummary, isoTime, summarizeCapture } from "./capture-summary.js";
