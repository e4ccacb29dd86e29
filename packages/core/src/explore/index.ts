// Public surface of core/explore: the feature explorer's pure part (numbers from CSV cells, columns, statistics,
// histograms); the CSV itself is read by core/csv.
export {
  type ColumnData,
  columnRows,
  type InvalidCell,
  MAX_QUOTED_TEXT,
  type NumericColumn,
  type TextColumn,
} from "./column-data.js";
export {
  type ColumnDescription,
  type ColumnSplit,
  type DescribeOptions,
  describeColumn,
  quoted,
  TOP_VALUES,
  type TopValue,
} from "./describe-column.js";
export {
  BinEdges,
  countBins,
  DEFAULT_BINS,
  type HistogramBin,
  type HistogramScale,
  MAX_BINS,
} from "./histogram.js";
export { parseNumberCell } from "./number-cell.js";
export { distinctSorted, type NumericStats, numericStats, quantile, sortedValues } from "./numeric-summary.js";
export { EMPTY_GROUP, MAX_GROUPS, OTHER_GROUP, type RowGroups, rowGroups } from "./row-groups.js";
