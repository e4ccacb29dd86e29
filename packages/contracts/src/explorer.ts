// The feature explorer's calls: an output table's columns, and one column over every row (statistics, a histogram or
// the most frequent values, optionally split by label or class), computed by the server (docs/api.md, "Feature
// explorer").
import { z } from "zod";

export const DEFAULT_HISTOGRAM_BINS = 40;
export const MAX_HISTOGRAM_BINS = 200;
export const histogramScales = ["linear", "log"] as const;
export type HistogramScale = (typeof histogramScales)[number];
/** The columns a split may be by, when the table has them. */
export const splitColumns = ["label", "class"] as const;
export type SplitColumn = (typeof splitColumns)[number];

/** The query of GET …/columns/:column; every parameter optional. */
export const columnQuery = z.strictObject({
  bins: z.coerce.number().int().min(1).max(MAX_HISTOGRAM_BINS).default(DEFAULT_HISTOGRAM_BINS),
  scale: z.enum(histogramScales).default("linear"),
  by: z.enum(splitColumns).optional(),
});
export type ColumnQuery = z.input<typeof columnQuery>;

/** The query, or messages naming each parameter that is wrong and why. */
export function parseColumnQuery(raw: unknown): { query: z.output<typeof columnQuery> } | { messages: string[] } {
  const parsed = columnQuery.safeParse(raw ?? {});
  if (parsed.success) return { query: parsed.data };
  const known = Object.keys(columnQuery.shape).join(", ");
  return {
    messages: parsed.error.issues.map((issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown query parameter ${issue.keys.join(", ")} (the parameters are ${known})`
        : `Invalid query parameter ${issue.path.join(".")}: ${issue.message}`,
    ),
  };
}

export const tableColumn = z.object({ name: z.string(), type: z.enum(["numeric", "text"]) });
export type TableColumn = z.infer<typeof tableColumn>;

/** GET /api/jobs/:id/outputs/:name/columns */
export const tableColumns = z.object({
  output: z.string(),
  format: z.enum(["csv", "parquet"]),
  rows: z.number(),
  columns: z.array(tableColumn),
  /** The split columns this table has, for `by`. */
  splitBy: z.array(z.enum(splitColumns)),
  /** What is odd about the file (rows of the wrong length, an unclosed quote, a name given twice), one line each. */
  problems: z.array(z.string()),
});
export type TableColumns = z.infer<typeof tableColumns>;

const histogramBin = z.object({ from: z.number(), to: z.number(), count: z.number() });

/** GET /api/jobs/:id/outputs/:name/columns/:column */
export const columnSummary = z.object({
  output: z.string(),
  column: z.string(),
  type: z.enum(["numeric", "text"]),
  rows: z.number(),
  /** Rows with a value: a finite number, or text that is not empty. */
  count: z.number(),
  /** Empty cells (CSV) or nulls (Parquet). */
  missing: z.number(),
  /** Cells of a numeric column that are no number; the first of them, by data row and CSV line. */
  invalid: z.number(),
  firstInvalid: z.object({ row: z.number(), line: z.number().nullable(), text: z.string() }).nullable(),
  distinct: z.number(),
  /** Numbers: pandas' describe() figures (sample standard deviation; quantiles interpolated linearly). */
  stats: z
    .object({
      min: z.number(),
      max: z.number(),
      mean: z.number(),
      std: z.number().nullable(),
      p1: z.number(),
      p25: z.number(),
      median: z.number(),
      p75: z.number(),
      p99: z.number(),
    })
    .nullable(),
  /** Numbers: equal-width bins, each [from, to) (the last includes the maximum), in the scale's space. */
  histogram: z.object({ scale: z.enum(histogramScales), bins: z.array(histogramBin) }).nullable(),
  /** The 30 most frequent values, most frequent first: of text, and of numbers when there are at most 30. */
  top: z.array(z.object({ value: z.string(), count: z.number() })).nullable(),
  /** Text: rows whose value is none of `top`'s. */
  otherValues: z.number(),
  /** With `by`: the groups (largest first, at most 8, the rest as "(other)") and their counts per bin or top value. */
  split: z
    .object({
      by: z.string(),
      groups: z.array(z.object({ name: z.string(), count: z.number() })),
      counts: z.array(z.array(z.number())),
    })
    .nullable(),
});
export type ColumnSummary = z.infer<typeof columnSummary>;
