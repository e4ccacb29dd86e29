// Public surface of core/timeline: events over time in one pass, drawn on common bins for a run's summary.
export { commonTimeline, HISTOGRAM_BINS, TimeHistogram, type Timeline, type TimelineSeries } from "./time-histogram.js";
