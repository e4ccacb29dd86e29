// Which outputs of a job the feature explorer reads (the server's rule: CSV and Parquet, by name), and how its
// figures are written: whole numbers with separators, others to six significant digits.
import type { Job } from "@tracemill/contracts";
import { formatCount } from "../job-figures.js";

const TABLE_NAME = /\.(csv|parquet)$/i;

export const tableOutputs = (job: Job) => job.outputs.filter((output) => TABLE_NAME.test(output.name));

// One formatter, made once: toLocaleString with options builds a new one per call.
const fractions = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return formatCount(value);
  const rounded = Number(value.toPrecision(6));
  return Math.abs(rounded) >= 1e9 || (rounded !== 0 && Math.abs(rounded) < 1e-4)
    ? rounded.toExponential(3)
    : fractions.format(rounded);
}
