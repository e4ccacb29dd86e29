// One column of an output table as the feature explorer holds it: numbers as doubles, or text as codes into a list of
// distinct values. Both CSV and Parquet readers produce this, so the statistics never know which file it came from.

/** The first cell of a numeric column that is no number: its data row (1-based), its line in a CSV, its text. */
export interface InvalidCell {
  row: number;
  /** The CSV line the row starts on (the header is line 1); null for Parquet. */
  line: number | null;
  text: string;
}

/** A column of numbers: NaN where a cell is missing or is no finite number (both counted, apart). */
export interface NumericColumn {
  readonly type: "numeric";
  readonly values: Float64Array;
  /** Empty cells (CSV) or nulls (Parquet). */
  readonly missing: number;
  /** Cells that hold something other than a finite number. */
  readonly invalid: number;
  readonly firstInvalid: InvalidCell | null;
}

/** A column of text: per row an index into `dictionary`, whose entry 0 is the empty cell (missing). */
export interface TextColumn {
  readonly type: "text";
  readonly codes: Uint32Array;
  readonly dictionary: readonly string[];
}

export type ColumnData = NumericColumn | TextColumn;

export const columnRows = (column: ColumnData): number =>
  column.type === "numeric" ? column.values.length : column.codes.length;

/** Text longer than this is cut where it is quoted back to a person (an invalid cell, a top value). */
export const MAX_QUOTED_TEXT = 200;
