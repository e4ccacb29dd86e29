// Public surface of core/features: the extractor lifecycle and the feature columns in CSV order.
export type { Extractor, ExtractorPacket } from "./extractor.js";
export { FEATURE_COLUMNS, FeatureSet, type FeatureState } from "./feature-set.js";
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
