// The labelling capability: the feature CSV of a capture with label columns (binary or per class), in one pass.
import fs from "node:fs";
import path from "node:path";
import { CIC_ATTACK_LABEL, CIC_BENIGN_LABEL, CIC_IDS2017_LABEL, TracemillError } from "@tracemill/core";
import type { CapabilityResult, RunOptions } from "../capability.js";
import {
  createLabeller,
  type LabelSourceOptions,
  labelOptionsForParts,
  labelSourceSummary,
  type SessionLabel,
} from "../labels/index.js";
import { writeSummary } from "../output/index.js";
import { type OutputFormat, runSessionPass, type SessionPassOptions } from "../pass/index.js";

export const LABELLED_CSV_FILE = "labelled.csv";
export const CLASSIFIED_CSV_FILE = "classified.csv";

export interface LabelOptions extends SessionPassOptions, LabelSourceOptions {
  /** "parquet": the rows as a typed Parquet file (labelled.parquet, classified.parquet) instead of the CSV. */
  format?: OutputFormat;
}

/**
 * Binary labels (attacks given, or a merge provenance record beside the capture) → labelled.csv; alerts →
 * classified.csv (`.parquet` with `format: "parquet"`). Both with summary.json, whose `labels` says which method was used and counts sessions per label.
 */
export async function labelCapture(
  capture: string | readonly string[],
  given: LabelOptions,
  run: RunOptions,
): Promise<CapabilityResult> {
  const captures = typeof capture === "string" ? [capture] : capture;
  const options = labelOptionsForParts(captures, given);
  const { labeller, provenancePackets } = await createLabeller(captures[0], options, run);
  const multiClass = labeller.method === "alerts";
  const parquet = options.format === "parquet";
  const csvName = (multiClass ? CLASSIFIED_CSV_FILE : LABELLED_CSV_FILE).replace(
    /\.csv$/,
    parquet ? ".parquet" : ".csv",
  );
  const perLabel: Record<string, number> = { "0": 0, "1": 0 };
  const perClass: Record<string, number> = {};
  // --cic-compat: one Label column, as CIC-IDS2017 has it, in place of the label columns.
  const compat = options.cicCompat === true;
  const pass = await runSessionPass(
    captures,
    path.join(run.outDir, csvName),
    compat ? [CIC_IDS2017_LABEL] : labeller.columns,
    {
      createState: () => undefined,
      onStart() {},
      onPacket: labeller.onPacket && ((session, packet) => labeller.onPacket!(session, packet)),
      onEnd(_state, session, row) {
        const label = labeller.label(session);
        if (compat) row.text(cicLabel(label, multiClass));
        else labeller.write(label, row);
        perLabel[label.label]++;
        if (multiClass) perClass[label.className] = (perClass[label.className] ?? 0) + 1;
      },
    },
    options,
    run,
  );
  if (provenancePackets !== undefined && provenancePackets !== pass.packets.read) {
    await fs.promises.rm(path.join(run.outDir, csvName), { force: true });
    throw new TracemillError(
      "BAD_INPUT",
      `the provenance record describes ${provenancePackets} packets but ${path.basename(captures[0])} has ${pass.packets.read}: it belongs to another capture`,
      { file: captures[0] },
    );
  }
  const summary = {
    ...pass,
    options: { ...pass.options, ...labelSourceSummary(options) },
    labels: {
      method: labeller.method,
      ...labeller.summary(),
      sessions: perLabel,
      ...(multiClass ? { classes: perClass } : {}),
    },
  };
  await writeSummary(run.outDir, summary);
  return {
    outputs: [
      { name: csvName, kind: `${multiClass ? "classified" : "labelled"}-${parquet ? "parquet" : "csv"}` },
      { name: "summary.json", kind: "summary-json" },
    ],
    summary,
  };
}

/**
 * A session's CIC-IDS2017 Label: BENIGN, or the alert's class (multi-class), or ATTACK for a binary label, which
 * knows no class.
 */
function cicLabel(label: SessionLabel, multiClass: boolean): string {
  if (label.label === 0) return CIC_BENIGN_LABEL;
  return multiClass ? label.className : CIC_ATTACK_LABEL;
}
