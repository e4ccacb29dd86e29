// Public surface of engine/result-warnings: what is suspect about a finished run, from its summary.
export {
  RESULT_WARNINGS_KEY,
  type ResultWarning,
  type ResultWarningCode,
  resultWarnings,
  withResultWarnings,
} from "./result-warnings.js";
