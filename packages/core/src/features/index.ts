// Public surface of core/features: the plugin interface (groups and sets), the sets, and the feature set that runs
// them over the pass.
export type {
  Column,
  ColumnType,
  FeatureGroup,
  FeatureOptions,
  FeatureSetDefinition,
  GroupPacket,
  SetDispatch,
} from "./feature-group.js";
export { columnNames, columnSchema, FEATURE_COLUMNS, FeatureSet, type FeatureState } from "./feature-set.js";
export { DEFAULT_FEATURE_SETS, FEATURE_SETS, featureSetsNamed, OPTION_SETS, SESSION_KEY } from "./feature-sets.js";
export { DEFAULT_SPLT, MAX_SPLT } from "./packet-sequences.js";
export {
  addMoments,
  addValue,
  MOMENT_SLOTS,
  momentDeviation,
  STATS_SLOTS,
  statCount,
  statDeviation,
  statMax,
  statMean,
  statMin,
  statSum,
} from "./running-stats.js";
export {
  CIC_ATTACK_LABEL,
  CIC_BENIGN_LABEL,
  CIC_COMPAT_KEY,
  CIC_IDS2017_COLUMNS,
  CIC_IDS2017_LABEL,
  CIC_MANUAL_LABEL,
  cicCompat,
} from "./sets/cic-compat.js";
