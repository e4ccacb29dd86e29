// The feature-extraction capability: a capture in, the 50-column session CSV and its run summary out.
import fs from "node:fs";
import path from "node:path";
import { csvHeaderLine, FEATURE_COLUMNS, OrderedRows, RowBuilder, TracemillError } from "@tracemill/core";
import type { CapabilityResult, OutputFile, RunOptions } from "../capability.js";
import { TRACEMILL_VERSION } from "../version.js";
import { FileDigest } from "./file-digest.js";
import { type FlowOptions, type FlowResult, runFlowPipeline } from "./flow-pipeline.js";
import { OutputFile as BufferedOutput } from "./output-file.js";

export interface ExtractOptions extends FlowOptions {
  /** Where to write the CSV; default `<outDir>/features.csv`. */
  csvPath?: string;
  /** Where to write the run summary; default `<outDir>/summary.json`. */
  summaryPath?: string;
  /** Packets read so far, after every input chunk (for a packets-per-second display). */
  onPackets?: (read: number) => void;
}

/** The run summary written beside the CSV (docs/features.md, "Run summary"). */
export type ExtractSummary = {
  tracemill: { version: string };
  input: { name: string; bytes: number; sha256: string; format: string };
  options: { idleTimeout: number; activeTimeout: number; length: "ip" | "frame" };
  complete: boolean;
  damage: { offset: number; message: string } | null;
  packets: FlowResult["packets"];
  fragments: FlowResult["fragments"];
  sessions: FlowResult["sessions"];
  csv: { name: string; rows: number; columns: number };
};

/**
 * Reads `input` once and writes one CSV row per session, in session start order, under a temporary name renamed
 * when complete, plus the JSON summary. A damaged capture still yields the sessions of the packets before the
 * damage, and the summary says `complete: false`.
 */
export async function extractFeatures(
  input: string,
  options: ExtractOptions & RunOptions,
): Promise<CapabilityResult & { summary: ExtractSummary }> {
  const flow = checkedOptions(options);
  const csvPath = options.csvPath ?? path.join(options.outDir, "features.csv");
  const summaryPath = options.summaryPath ?? path.join(options.outDir, "summary.json");
  if (!fs.existsSync(input)) throw new TracemillError("NOT_FOUND", `${input}: no such file`, { file: input });
  const hashing = new FileDigest(input);

  const csv = new BufferedOutput(csvPath);
  let rows = 0;
  try {
    csv.write(asciiBytes(csvHeaderLine(FEATURE_COLUMNS)));
    const row = new RowBuilder();
    const ordered = new OrderedRows((bytes, start, end) => csv.write(bytes, start, end));
    const result = await runFlowPipeline(
      input,
      flow,
      {
        onSessionEnd(session, features) {
          row.start();
          features.finish(features.stateOf(session.slot), session, row);
          row.end();
          ordered.put(session.seq, row.bytes, row.length);
          rows++;
        },
      },
      { onProgress: options.onProgress, signal: options.signal, onPackets: options.onPackets, tap: hashing.tap },
    );
    const summary: ExtractSummary = {
      tracemill: { version: TRACEMILL_VERSION },
      input: {
        name: path.basename(input),
        bytes: result.fileBytes,
        sha256: await hashing.result(),
        format: result.format,
      },
      options: flow,
      complete: result.complete,
      damage: result.damage === null ? null : { offset: result.damage.offset, message: result.damage.message },
      packets: result.packets,
      fragments: result.fragments,
      sessions: result.sessions,
      csv: { name: path.basename(csvPath), rows, columns: FEATURE_COLUMNS.length },
    };
    await csv.commit();
    await writeAtomically(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
    const outputs: OutputFile[] = [
      { name: path.basename(csvPath), kind: "features-csv" },
      { name: path.basename(summaryPath), kind: "summary-json" },
    ];
    return { outputs, summary };
  } catch (error) {
    hashing.cancel();
    await csv.discard();
    throw error;
  }
}

function checkedOptions(options: FlowOptions): Required<FlowOptions> {
  const idleTimeout = options.idleTimeout ?? 120;
  const activeTimeout = options.activeTimeout ?? 1800;
  const length = options.length ?? "ip";
  for (const [name, value] of [
    ["idle timeout", idleTimeout],
    ["active timeout", activeTimeout],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new TracemillError("BAD_OPTION", `the ${name} must be a positive number of seconds (got ${value})`, {
        [name]: value,
      });
    }
  }
  if (length !== "ip" && length !== "frame") {
    throw new TracemillError("BAD_OPTION", `--length must be "ip" or "frame" (got ${String(length)})`, { length });
  }
  return { idleTimeout, activeTimeout, length };
}

function asciiBytes(text: string): Uint8Array {
  return Buffer.from(text, "utf8");
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.partial`;
  await fs.promises.writeFile(temporary, text);
  await fs.promises.rename(temporary, file);
}
