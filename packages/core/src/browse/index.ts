// Public surface of core/browse: the pure part of reading a job's outputs back for pictures (row starts of a CSV or
// text file, a row's session and the search over them, an IPT line's gaps).
export { type IptGaps, iptGapCount, iptGaps } from "./ipt-line.js";
export { ROW_STRIDE, type RowGrammar, RowStarts, type RowStartTable } from "./row-starts.js";
export {
  matchesSession,
  parseSessionQuery,
  SESSION_KEY_COLUMNS,
  type SessionKey,
  type SessionQuery,
  sessionKey,
  sessionKeyColumns,
} from "./session-key.js";
