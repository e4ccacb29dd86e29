// The last step of a job over several captures: each capture ran as a part of its own (the same capability and
// options), and this joins their outputs. Every output a part has becomes one combined output of the same name, the
// parts' rows one after the other in the order the captures were given (each part's rows in their own order), and
// each part's files are kept beside it under the part's name (part-names.ts). docs/api.md, "Jobs over several
// captures", is the user's side of this. Its imports stay narrow (no index of the core or of engine/output; Parquet
// and images loaded for such outputs only): the job waits for a combining process's start-up after its last part.
import fs from "node:fs";
import path from "node:path";
import { TracemillError } from "@tracemill/core/errors";
import type { CapabilityResult, OutputFile, OutputKind, RunOptions } from "../capability.js";
import { SUMMARY_FILE, writeSummary } from "../output/summary-file.js";
import { TRACEMILL_VERSION } from "../version.js";
import { combinedSummary, type PartSummary } from "./combined-summary.js";
import { concatText } from "./concat-text.js";
import { partFileName } from "./part-names.js";

export interface PartResult {
  /** The capture's name as the user gave it. */
  capture: string;
  /** The part's outputs, by name and kind, with where each is. */
  outputs: (OutputFile & { path: string })[];
  summary: Record<string, unknown>;
}

/** Output kinds whose files are rows with a header line, and those that are lines only. */
const CSV_KINDS = new Set<OutputKind>(["features-csv", "labelled-csv", "classified-csv"]);
const TEXT_KINDS = new Set<OutputKind>(["ipt-txt"]);
const PARQUET_KINDS = new Set<OutputKind>(["features-parquet", "labelled-parquet", "classified-parquet"]);

/** Whether a capability's outputs of these kinds can be combined (the server refuses other jobs over several captures). */
export const combinableKind = (kind: OutputKind): boolean =>
  CSV_KINDS.has(kind) ||
  TEXT_KINDS.has(kind) ||
  PARQUET_KINDS.has(kind) ||
  kind === "images-zip" ||
  kind === "summary-json";

export interface CombinedResult extends CapabilityResult {
  /** The SHA-256 (hex) of combined outputs, by name, where it was taken while they were written (CSV and text). */
  digests: Map<string, string>;
}

export async function combineParts(parts: readonly PartResult[], options: RunOptions): Promise<CombinedResult> {
  if (parts.length === 0) throw new TracemillError("BAD_INPUT", "there are no parts to combine");
  const layout = parts[0].outputs.map(({ name, kind }) => ({ name, kind }));
  for (const [index, part] of parts.entries()) {
    const names = part.outputs.map((o) => `${o.name}:${o.kind}`).join(",");
    if (names !== layout.map((o) => `${o.name}:${o.kind}`).join(",")) {
      throw new TracemillError("BAD_INPUT", `part ${index + 1} (${part.capture}) has other outputs than part 1`);
    }
  }
  const outputs: OutputFile[] = [];
  const digests = new Map<string, string>();
  // The parts' own files first: links, no copies (a part's outputs are complete files already).
  const partSummaries: PartSummary[] = parts.map((part, index) => ({
    capture: part.capture,
    summary: part.summary,
    files: part.outputs.map((output) => {
      const name = partFileName(index, parts.length, part.capture, output.name);
      linkOrCopy(output.path, path.join(options.outDir, name));
      return name;
    }),
  }));
  const rowsOutput = layout.find((o) => CSV_KINDS.has(o.kind) || PARQUET_KINDS.has(o.kind));
  const summary = combinedSummary(TRACEMILL_VERSION, partSummaries, rowsOutput?.name ?? null);

  const totalBytes = parts.reduce(
    (sum, part) => sum + part.outputs.reduce((s, o) => s + fs.statSync(o.path).size, 0),
    0,
  );
  let doneBytes = 0;
  const progress = (bytes: number) =>
    options.onProgress?.({ percent: Math.min(99, (100 * bytes) / Math.max(1, totalBytes)), stage: "combining parts" });
  for (const { name, kind } of layout) {
    if (kind === "summary-json") continue;
    const sources = parts.map((part) => part.outputs.find((o) => o.name === name)!.path);
    const target = path.join(options.outDir, name);
    const before = doneBytes;
    const sourceBytes = sources.reduce((sum, source) => sum + fs.statSync(source).size, 0);
    if (CSV_KINDS.has(kind) || TEXT_KINDS.has(kind)) {
      const digest = await concatText(sources, target, {
        header: CSV_KINDS.has(kind),
        signal: options.signal,
        onBytes: (bytes) => progress(before + bytes),
      });
      digests.set(name, digest);
    } else if (PARQUET_KINDS.has(kind)) {
      const { concatParquet } = await import("./concat-parquet.js");
      await concatParquet(sources, target, {
        summary: JSON.stringify(summary),
        createdBy: `tracemill ${TRACEMILL_VERSION}`,
        signal: options.signal,
        onRowGroups: (done, total) => progress(before + (sourceBytes * done) / Math.max(1, total)),
      });
    } else if (kind === "images-zip") {
      const { concatImageZips } = await import("./concat-images.js");
      await concatImageZips(sources, target, { signal: options.signal });
    } else {
      throw new TracemillError("BAD_INPUT", `outputs of kind ${kind} (${name}) cannot be combined`);
    }
    doneBytes = before + sourceBytes;
    outputs.push({ name, kind });
  }
  await writeSummary(options.outDir, summary);
  outputs.push({ name: SUMMARY_FILE, kind: "summary-json" });
  for (const part of partSummaries) {
    for (const [i, name] of part.files.entries()) outputs.push({ name, kind: layout[i].kind });
  }
  options.onProgress?.({ percent: 100, stage: "combined" });
  return { outputs, summary, digests };
}

/** A hard link (the same file system, no space taken), else a copy under a temporary name renamed in. */
function linkOrCopy(source: string, target: string): void {
  try {
    fs.linkSync(source, target);
  } catch {
    const partial = `${target}.partial`;
    fs.copyFileSync(source, partial);
    fs.renameSync(partial, target);
  }
}
