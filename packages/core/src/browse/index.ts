// Public surface of core/browse: the pure part of reading a job's outputs back for pictures (a row's session and the
// search over them, an IPT line's gaps); the rows themselves are found and read by core/csv.
export { type IptGaps, iptGapCount, iptGaps } from "./ipt-line.js";
export {
  matchesSession,
  parseSessionQuery,
  SESSION_KEY_COLUMNS,
  type SessionKey,
  type SessionQuery,
  sessionKey,
  sessionKeyColumns,
} from "./session-key.js";
