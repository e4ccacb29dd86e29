// The dataset's card: dataset.json (the spec as built, inputs' digests, and everything the build found, enough to
// build it again with `tracemill dataset build dataset.json`) and DATASET.md (the same for people to read). Both
// hold nothing that changes from one build to the next (no dates, no absolute paths), so a rebuild gives the same
// bytes.
import fs from "node:fs";
import path from "node:path";
import type { Column, SplitResult } from "@tracemill/core";
import type { CapabilityResult } from "../../capability.js";
import { isoMicroseconds } from "../../labels/index.js";
import type { ParquetSink } from "../../output/index.js";
import type { SessionPassSummary } from "../../pass/index.js";
import { TRACEMILL_VERSION } from "../../version.js";
import type { AuditOutcome } from "../build/route-and-audit.js";
import type { CombinedLabels } from "../sources/combined-labels.js";
import type { LoadedSpec } from "../spec/load-spec.js";
import { cardMarkdown } from "./card-markdown.js";
import { caveatsOf } from "./caveats.js";

export const CARD_JSON = "dataset.json";
export const CARD_MARKDOWN = "DATASET.md";

/** One capture as the build read it. */
export interface CaptureRead {
  file: string;
  summary: SessionPassSummary & { rows: { rows: number } };
  /** First session start and last session end, µs since the epoch (infinite when it has no session). */
  span: { first: number; last: number };
}

export interface CardInput {
  loaded: LoadedSpec;
  /** Where the files are written, and the folder the card will be read from (its paths are relative to it). */
  outDir: string;
  cardDir: string;
  schema: readonly Column[];
  reads: readonly CaptureRead[];
  labels: CombinedLabels;
  splits: SplitResult;
  audit: AuditOutcome;
  files: readonly ParquetSink[];
  variantFiles: readonly ParquetSink[];
}

/** Commits the split files, then writes the card; returns the outputs and the card's `built` as the summary. */
export async function writeCard(input: CardInput): Promise<CapabilityResult> {
  const { loaded, outDir, cardDir, splits, labels } = input;
  const spec = loaded.spec;
  const relative = (file: string) => path.relative(cardDir, file).split(path.sep).join("/") || ".";
  const fromSpec = (file: string) => relative(path.resolve(path.dirname(loaded.file), file));
  const splitRows = splits.counts.map((byClass) => byClass.reduce((sum, n) => sum + n, 0));
  const fileNames = spec.split.splits.map((s) => `${s.name}.parquet`);
  const variantNames = input.variantFiles.length > 0 ? spec.split.splits.map((s) => `${s.name}.unflagged.parquet`) : [];
  for (const [i, file] of input.files.entries()) {
    await file.commit(JSON.stringify(footer(spec.name, spec.split.splits[i].name, splitRows[i], false)));
  }
  for (const [i, file] of input.variantFiles.entries()) {
    await file.commit(JSON.stringify(footer(spec.name, spec.split.splits[i].name, splitRows[i], true)));
  }
  const inputs = input.reads.map(({ summary, span }) => ({
    name: summary.input.name,
    bytes: summary.input.bytes,
    sha256: summary.input.sha256,
    format: summary.input.format,
    first: Number.isFinite(span.first) ? isoMicroseconds(Math.floor(span.first)) : null,
    last: Number.isFinite(span.last) ? isoMicroseconds(Math.floor(span.last)) : null,
    sessions: summary.rows.rows,
    complete: summary.complete,
    damage: summary.damage,
  }));
  const classes: Record<string, number> = {};
  for (const [classId, name] of labels.classes.entries()) {
    classes[name] = splits.counts.reduce((sum, byClass) => sum + (byClass[classId] ?? 0), 0);
  }
  const built = {
    tracemill: { version: TRACEMILL_VERSION },
    inputs,
    options: input.reads[0]?.summary.options ?? null,
    rows: splitRows.reduce((sum, n) => sum + n, 0),
    columns: input.schema.map((c) => ({ name: c.name, type: c.type })),
    classes,
    splits: spec.split.splits.map((s, i) => ({
      name: s.name,
      fraction: s.fraction,
      rows: splitRows[i],
      achieved:
        splitRows[i] /
        Math.max(
          1,
          splitRows.reduce((sum, n) => sum + n, 0),
        ),
      byClass: Object.fromEntries(labels.classes.map((name, c) => [name, splits.counts[i][c] ?? 0])),
      file: fileNames[i],
      ...(variantNames.length > 0 ? { unflaggedFile: variantNames[i] } : {}),
    })),
    splitDetails: splits.details,
    splitWarnings: splits.warnings,
    sessions: sumSessions(input.reads),
    packets: sumPackets(input.reads),
    labels: {
      precedence: labels.precedence,
      sessionsBySource: labels.bySource,
      conflicts: labels.conflicts,
      agreements: labels.agreements,
      sources: labels.summaries(),
    },
    audit: input.audit,
    caveats: [] as string[],
  };
  built.caveats = caveatsOf(built);
  const card = {
    version: spec.version,
    name: spec.name,
    captures: input.reads.map(({ file, summary }) => ({ path: relative(file), sha256: summary.input.sha256 })),
    features: spec.features,
    options: spec.options,
    labels: {
      ...spec.labels,
      attacks: spec.labels.attacks.map((a) => ({ ...a, path: fromSpec(a.path) })),
      alerts: spec.labels.alerts.map((a) => ({
        ...a,
        path: fromSpec(a.path),
        ...(a.classification ? { classification: fromSpec(a.classification) } : {}),
      })),
    },
    split: spec.split,
    audit: { ...spec.audit, dropFlagged: input.variantFiles.length > 0 || spec.audit.dropFlagged },
    built,
  };
  await writeAtomically(path.join(outDir, CARD_JSON), `${JSON.stringify(card, null, 2)}\n`);
  await writeAtomically(path.join(outDir, CARD_MARKDOWN), cardMarkdown(card));
  return {
    outputs: [
      ...fileNames.map((name) => ({ name, kind: "dataset-split-parquet" as const })),
      ...variantNames.map((name) => ({ name, kind: "dataset-split-parquet" as const })),
      { name: CARD_JSON, kind: "dataset-json" },
      { name: CARD_MARKDOWN, kind: "dataset-card-md" },
    ],
    summary: built,
  };
}

export type DatasetCard = Record<string, unknown> & { name: string; built: Record<string, unknown> };

function footer(dataset: string, split: string, rows: number, unflagged: boolean) {
  return { tracemill: { version: TRACEMILL_VERSION }, dataset, split, rows, unflagged, card: CARD_JSON };
}

function sumSessions(reads: readonly CaptureRead[]) {
  const byEndReason: Record<string, number> = {};
  const byProtocol: Record<string, number> = {};
  for (const { summary } of reads) {
    for (const [k, v] of Object.entries(summary.sessions.byEndReason)) byEndReason[k] = (byEndReason[k] ?? 0) + v;
    for (const [k, v] of Object.entries(summary.sessions.byProtocol)) byProtocol[k] = (byProtocol[k] ?? 0) + v;
  }
  return { byEndReason, byProtocol };
}

function sumPackets(reads: readonly CaptureRead[]) {
  let read = 0;
  let decoded = 0;
  const ignored: Record<string, number> = {};
  for (const { summary } of reads) {
    read += summary.packets.read;
    decoded += summary.packets.decoded;
    for (const [k, v] of Object.entries(summary.packets.ignored)) ignored[k] = (ignored[k] ?? 0) + v;
  }
  return { read, decoded, ignored };
}

/** Writes `text` under a temporary name, then renames it: no card that looks whole but is not. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.partial`;
  await fs.promises.writeFile(temporary, text);
  await fs.promises.rename(temporary, file);
}
