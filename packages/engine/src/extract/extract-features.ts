// The feature-extraction capability: a capture in, the session CSV (or Parquet file) and its run summary out.
import fs from "node:fs";
import path from "node:path";
import { CIC_IDS2017_LABEL, CIC_MANUAL_LABEL } from "@tracemill/core";
import type { CapabilityResult, OutputFile, RunOptions } from "../capability.js";
import {
  type OutputFormat,
  runSessionPass,
  type SessionHooks,
  type SessionPassOptions,
  type SessionPassSummary,
} from "../pass/index.js";

export interface ExtractOptions extends SessionPassOptions {
  /** Where to write the rows (the CSV, or the Parquet file with `format: "parquet"`); default `<outDir>/features.csv` or `<outDir>/features.parquet`. */
  csvPath?: string;
  /** Where to write the run summary; default `<outDir>/summary.json`. */
  summaryPath?: string;
  /** Packets read so far, after every input chunk (for a packets-per-second display). */
  onPackets?: (read: number) => void;
}

/** The run summary written beside the CSV or Parquet file (docs/features.md, "Run summary"). */
export type ExtractSummary<F extends OutputFormat = "csv"> = SessionPassSummary<F>;

/**
 * Reads `input` once and writes one CSV row per session, in session start order, under a temporary name renamed
 * when complete, plus the JSON summary. A damaged capture still yields the sessions of the packets before the
 * damage, and the summary says `complete: false`. Several inputs (the parts of a split capture, in order) are read
 * as one capture: sessions go on across them, and the summary lists each under `inputs`.
 */
export async function extractFeatures<F extends OutputFormat = "csv">(
  input: string | readonly string[],
  options: ExtractOptions & { format?: F } & RunOptions,
): Promise<CapabilityResult & { summary: ExtractSummary<F> }> {
  const parquet = options.format === "parquet";
  const csvPath = options.csvPath ?? path.join(options.outDir, parquet ? "features.parquet" : "features.csv");
  const summaryPath = options.summaryPath ?? path.join(options.outDir, "summary.json");
  const compat = options.cicCompat === true;
  const summary = await runSessionPass(
    input,
    csvPath,
    compat ? [CIC_IDS2017_LABEL] : [],
    compat ? UNLABELLED : null,
    options,
    {
      onProgress: options.onProgress,
      signal: options.signal,
      onPackets: options.onPackets,
      rowMemoryBytes: options.rowMemoryBytes,
      inputHashes: options.inputHashes,
    },
  );
  await writeAtomically(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
  const outputs: OutputFile[] = [
    { name: path.basename(csvPath), kind: parquet ? "features-parquet" : "features-csv" },
    { name: path.basename(summaryPath), kind: "summary-json" },
  ];
  return { outputs, summary };
}

/** `--cic-compat`'s Label without labels: what CICFlowMeter writes in every row. */
const UNLABELLED: SessionHooks<undefined> = {
  createState: () => undefined,
  onStart() {},
  onEnd(_state, _session, row) {
    row.ascii(CIC_MANUAL_LABEL);
  },
};

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.partial`;
  await fs.promises.writeFile(temporary, text);
  await fs.promises.rename(temporary, file);
}
