// What the feature explorer says about one column over every row: counts, statistics and a histogram for numbers,
// the most frequent values for text, each optionally split by the groups of a label or class column.
import {
  type ColumnData,
  type InvalidCell,
  MAX_QUOTED_TEXT,
  type NumericColumn,
  type TextColumn,
} from "./column-data.js";
import { BinEdges, countBins, DEFAULT_BINS, type HistogramBin, type HistogramScale } from "./histogram.js";
import { distinctSorted, type NumericStats, numericStats, sortedValues } from "./numeric-summary.js";
import { type RowGroups, rowGroups } from "./row-groups.js";

/** Text values listed by name; the rest are counted together. */
export const TOP_VALUES = 30;

export interface DescribeOptions {
  /** Histogram bins (numeric columns); default 40. */
  bins?: number;
  scale?: HistogramScale;
  /** Split the counts by this column's values (a label or class column). */
  by?: { name: string; column: ColumnData };
}

export interface TopValue {
  value: string;
  count: number;
}

export interface ColumnSplit {
  by: string;
  groups: { name: string; count: number }[];
  /** Per group, counts aligned with the histogram's bins (numeric) or the top values (text). */
  counts: number[][];
}

export interface ColumnDescription {
  type: "numeric" | "text";
  rows: number;
  /** Rows with a value: a finite number, or non-empty text. */
  count: number;
  missing: number;
  /** Cells of a numeric column that are no number. */
  invalid: number;
  firstInvalid: InvalidCell | null;
  distinct: number;
  stats: NumericStats | null;
  histogram: { scale: HistogramScale; bins: HistogramBin[] } | null;
  /** The most frequent values, most frequent first (ties by value): text, and numbers of at most 30 values. */
  top: TopValue[] | null;
  /** Rows whose text is none of `top`'s values. */
  otherValues: number;
  split: ColumnSplit | null;
}

export function describeColumn(column: ColumnData, options: DescribeOptions = {}): ColumnDescription {
  const groups = options.by ? rowGroups(options.by.column) : null;
  return column.type === "numeric"
    ? describeNumbers(column, options, groups)
    : describeText(column, options.by?.name ?? "", groups);
}

function describeNumbers(column: NumericColumn, options: DescribeOptions, groups: RowGroups | null) {
  const sorted = sortedValues(column.values);
  const stats = numericStats(sorted);
  const scale = options.scale ?? "linear";
  let histogram: ColumnDescription["histogram"] = null;
  let split: ColumnSplit | null = null;
  if (stats) {
    const edges = new BinEdges(stats.min, stats.max, options.bins ?? DEFAULT_BINS, scale);
    const grouped = groups ? { of: groups.of, count: groups.names.length } : undefined;
    const { counts, perGroup } = countBins(column.values, edges, grouped);
    histogram = { scale, bins: edges.bounds().map((bounds, i) => ({ ...bounds, count: counts[i] })) };
    if (groups) split = splitOf(options.by?.name ?? "", groups.names, perGroup);
  } else if (groups) {
    split = splitOf(
      options.by?.name ?? "",
      groups.names,
      groups.names.map(() => []),
    );
  }
  const distinct = distinctSorted(sorted);
  return {
    type: "numeric",
    rows: column.values.length,
    count: sorted.length,
    missing: column.missing,
    invalid: column.invalid,
    firstInvalid: column.firstInvalid,
    distinct,
    stats,
    histogram,
    top: distinct > 0 && distinct <= TOP_VALUES ? valueCounts(sorted) : null,
    otherValues: 0,
    split,
  } satisfies ColumnDescription;
}

/**
 * Each value of a column of few values (a protocol, a label, a flag) with its rows, most frequent first (ties by
 * value): such a column reads better as bars of its values than as bins.
 */
function valueCounts(sorted: Float64Array): TopValue[] {
  const counts: { value: number; count: number }[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) counts[counts.length - 1].count++;
    else counts.push({ value: sorted[i], count: 1 });
  }
  counts.sort((a, b) => b.count - a.count || a.value - b.value);
  return counts.map(({ value, count }) => ({ value: String(value), count }));
}

function describeText(column: TextColumn, by: string, groups: RowGroups | null): ColumnDescription {
  const perCode = new Array<number>(column.dictionary.length).fill(0);
  for (let row = 0; row < column.codes.length; row++) perCode[column.codes[row]]++;
  const present: number[] = [];
  for (let code = 1; code < perCode.length; code++) if (perCode[code] > 0) present.push(code);
  const name = (code: number) => column.dictionary[code];
  present.sort((a, b) => perCode[b] - perCode[a] || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  const shown = present.slice(0, TOP_VALUES);
  const count = column.codes.length - perCode[0];
  const top = shown.map((code) => ({ value: quoted(name(code)), count: perCode[code] }));
  let split: ColumnSplit | null = null;
  if (groups) {
    const place = new Int32Array(perCode.length).fill(-1);
    shown.forEach((code, at) => {
      place[code] = at;
    });
    const perGroup = groups.names.map(() => new Array<number>(shown.length).fill(0));
    for (let row = 0; row < column.codes.length; row++) {
      const at = place[column.codes[row]];
      if (at >= 0) perGroup[groups.of[row]][at]++;
    }
    split = splitOf(by, groups.names, perGroup);
  }
  return {
    type: "text",
    rows: column.codes.length,
    count,
    missing: perCode[0],
    invalid: 0,
    firstInvalid: null,
    distinct: present.length,
    stats: null,
    histogram: null,
    top,
    otherValues: count - top.reduce((sum, value) => sum + value.count, 0),
    split,
  };
}

function splitOf(by: string, names: string[], perGroup: number[][]): ColumnSplit {
  return {
    by,
    groups: names.map((name, g) => ({ name, count: perGroup[g].reduce((sum, n) => sum + n, 0) })),
    counts: perGroup,
  };
}

/** Text as it is shown back: cut, with an ellipsis, past MAX_QUOTED_TEXT characters. */
export function quoted(text: string): string {
  return text.length > MAX_QUOTED_TEXT ? `${text.slice(0, MAX_QUOTED_TEXT - 1)}…` : text;
}
