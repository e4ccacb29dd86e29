// Public surface of core/dataset: the pure parts of a dataset build (schedules, splits, the leakage audit).
export { AddressSet } from "./address-set.js";
export {
  type AuditInput,
  type AuditOptions,
  type AuditRow,
  auditColumns,
  DEFAULT_AUDIT_OPTIONS,
  IDENTIFIER_COLUMN_NAMES,
} from "./audit.js";
export {
  type CompiledSchedule,
  type CompiledWindow,
  type CompileOptions,
  compileSchedule,
  type ScheduleSpec,
  type ScheduleWindowSpec,
} from "./schedule.js";
export { ScheduleMatcher } from "./schedule-matcher.js";
export { SeededRandom } from "./seeded-random.js";
export {
  assignSplits,
  type HostKey,
  SPLIT_METHODS,
  type SplitKeys,
  type SplitMethod,
  type SplitResult,
  type SplitSpec,
} from "./splits.js";
