// A dataset job's run: its inputs laid out under the names their users know, the dataset spec written from the job's
// parameters with relative paths only, then the engine's build. The card (dataset.json) then names each input as
// `captures/<name>`, `attacks/<name>`, `alerts/<name>`: put the downloaded dataset beside folders of those names and
// `tracemill dataset build dataset.json` builds it again. No path of the server reaches an output.
import fs from "node:fs";
import path from "node:path";
import type { DatasetParams, InputRole } from "@tracemill/contracts";
import type { CapabilityResult, RunOptions } from "@tracemill/engine";

/** An input as the worker hands it over: where it is, its place among its role's files, its stored digest. */
export interface ListedInput {
  path: string;
  position: number;
  sha256?: string;
}

/** The folder of the output directory each role's files are staged in (and the card names them by). */
const FOLDERS = {
  capture: "captures",
  attacks: "attacks",
  alerts: "alerts",
  classification: "classification",
} as const;
/** The spec file, written beside the staged folders; removed with them when the build ends. */
const SPEC_FILE = "dataset-spec.json";

export interface StagedInputs {
  /** Each role's files, relative to the spec, in their order. */
  captures: string[];
  attacks: string[];
  alerts: string[];
  classification?: string;
  /** Digests the server recorded, by the staged path the engine is given. */
  hashes: Record<string, string>;
  /** What to remove when the build ends: the staged folders and the spec. */
  staged: string[];
}

/**
 * Links each input into `dir/<folder>/<name>`, the name the file has in its user's eyes (the last part of the path
 * the worker reached it by); a name already taken in a folder gets " (2)", " (3)"… before its extension. A merge's
 * provenance record goes beside the capture it labels, under the name `beside` gives (the engine's).
 */
export function stageDatasetInputs(
  dir: string,
  lists: Partial<Record<InputRole, ListedInput[]>>,
  classification: string | undefined,
  beside: (capture: string) => string,
): StagedInputs {
  const result: StagedInputs = { captures: [], attacks: [], alerts: [], hashes: {}, staged: [] };
  const link = (folder: string, name: string, input: ListedInput): string => {
    const at = path.join(dir, folder);
    if (!result.staged.includes(at)) {
      fs.rmSync(at, { recursive: true, force: true });
      fs.mkdirSync(at, { recursive: true });
      result.staged.push(at);
    }
    const target = path.join(at, name);
    fs.symlinkSync(input.path, target);
    if (input.sha256) result.hashes[target] = input.sha256;
    return `${folder}/${name}`;
  };
  const records = new Map((lists.provenance ?? []).map((record) => [record.position, record]));
  for (const role of ["capture", "attacks", "alerts"] as const) {
    const names = role === "capture" ? result.captures : result[role];
    const taken = new Set<string>();
    for (const input of byPosition(lists[role] ?? [])) {
      const name = unique(path.basename(input.path), taken);
      names.push(link(FOLDERS[role], name, input));
      const record = role === "capture" ? records.get(input.position) : undefined;
      if (record) link(FOLDERS[role], unique(path.basename(beside(name)), taken), { path: record.path, position: 0 });
    }
  }
  if (classification !== undefined) {
    result.classification = link(FOLDERS.classification, path.basename(classification), {
      path: classification,
      position: 0,
    });
  }
  return result;
}

/** The dataset spec (docs/datasets.md) of a job: its parameters, with its staged inputs as the files. */
export function datasetSpecOf(params: DatasetParams, staged: Omit<StagedInputs, "hashes" | "staged">) {
  const { features, idleTimeout, activeTimeout, length, splt, labels, split, audit, name } = params;
  const classes = labels.attackClasses;
  return {
    version: 1,
    ...(name !== undefined && { name }),
    captures: staged.captures,
    features,
    options: { idleTimeout, activeTimeout, length, ...(splt !== undefined && { splt }) },
    labels: {
      ...(labels.precedence && { precedence: labels.precedence }),
      provenance: labels.provenance,
      attacks: staged.attacks.map((file, i) => ({
        path: file,
        ...(classes[i] !== undefined && { class: classes[i] }),
      })),
      alerts: staged.alerts.map((file) => ({
        path: file,
        ...(staged.classification !== undefined && { classification: staged.classification }),
        ...(labels.maxPriority !== undefined && { maxPriority: labels.maxPriority }),
        ...(labels.tolerance !== undefined && { tolerance: labels.tolerance }),
      })),
      ...(labels.schedule && { schedule: labels.schedule }),
    },
    split,
    audit,
  };
}

/**
 * Builds the dataset into `options.outDir`. The inputs are staged in that directory itself, so that the card's paths
 * are the inputs' names rather than a way through the server's directories, and removed again before the run ends,
 * whatever its end: the output directory then holds the build's files only.
 */
export async function runDataset(
  params: DatasetParams,
  lists: Partial<Record<InputRole, ListedInput[]>>,
  classification: string | undefined,
  options: RunOptions,
): Promise<CapabilityResult> {
  const { buildDataset, parseSpec } = await import("@tracemill/engine/dataset");
  const { provenanceBeside } = await import("@tracemill/engine/labels");
  let staged: StagedInputs | undefined;
  const specFile = path.join(options.outDir, SPEC_FILE);
  try {
    staged = stageDatasetInputs(options.outDir, lists, classification, provenanceBeside);
    const text = `${JSON.stringify(datasetSpecOf(params, staged), null, 2)}\n`;
    fs.writeFileSync(specFile, text);
    const loaded = { spec: parseSpec(text, SPEC_FILE), file: specFile };
    return await buildDataset(loaded, {}, { ...options, inputHashes: { ...options.inputHashes, ...staged.hashes } });
  } finally {
    fs.rmSync(specFile, { force: true });
    for (const dir of staged?.staged ?? []) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function byPosition(list: readonly ListedInput[]): ListedInput[] {
  return [...list].sort((a, b) => a.position - b.position);
}

/** `name`, or `stem (2).ext`, … : the first not in `taken` (which it joins). */
function unique(name: string, taken: Set<string>): string {
  const extension = path.extname(name);
  const stem = name.slice(0, name.length - extension.length);
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate);
  return candidate;
}
