// Public surface of core/features: the extractor lifecycle and the feature columns in CSV order.
export { type Extractor, extractor } from "./extractor.js";
export { FEATURE_COLUMNS, FeatureSet, type FeatureState } from "./feature-set.js";
export { RunningStats } from "./running-stats.js";
