// Reads a dataset spec (YAML, or JSON, which YAML reads too), validates it, and resolves its files against the
// spec's folder. Every error names the spec, the line and the field.
import fs from "node:fs";
import path from "node:path";
import { TracemillError } from "@tracemill/core";
import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { type DatasetSpec, datasetSpecSchema } from "./dataset-spec.js";

/** Specs larger than this are refused before parsing (a spec is a page of text, not data). */
const MAX_SPEC_BYTES = 4 << 20;

export interface LoadedSpec {
  spec: DatasetSpec;
  /** The spec file's absolute path. */
  file: string;
}

/** `labels.schedule.windows[3].start` */
export function fieldName(at: readonly PropertyKey[]): string {
  let out = "";
  for (const key of at) out += typeof key === "number" ? `[${key}]` : `${out === "" ? "" : "."}${String(key)}`;
  return out === "" ? "(the whole spec)" : out;
}

export async function loadSpec(file: string): Promise<LoadedSpec> {
  let text: string;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new TracemillError("BAD_INPUT", `${file}: a dataset spec must be a file`, { file });
    if (stat.size > MAX_SPEC_BYTES)
      throw new TracemillError("BAD_INPUT", `${file}: ${stat.size} bytes is too large for a dataset spec`, { file });
    text = await fs.promises.readFile(file, "utf8");
  } catch (error) {
    if (error instanceof TracemillError) throw error;
    throw new TracemillError("NOT_FOUND", `${file}: cannot read the dataset spec (${(error as Error).message})`, {
      file,
    });
  }
  return { spec: parseSpec(text, file), file: path.resolve(file) };
}

/** Parses and validates a spec's text; `file` names it in errors. */
export function parseSpec(text: string, file: string): DatasetSpec {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const { line, col } = lines.linePos(error.pos[0]);
    throw new TracemillError("BAD_INPUT", `${file} line ${line}, column ${col}: ${firstLine(error.message)}`, {
      file,
      line,
    });
  }
  const value = doc.toJS({ maxAliasCount: 100 });
  const result = datasetSpecSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const line = lineOf(doc, lines, issue.path);
  const where = line === undefined ? "" : ` line ${line}`;
  throw new TracemillError("BAD_INPUT", `${file}${where}: ${fieldName(issue.path)}: ${describe(issue)}`, {
    file,
    field: fieldName(issue.path),
    ...(line === undefined ? {} : { line }),
  });
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys")
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
  if (issue.code === "invalid_type" && issue.input === undefined) return "missing";
  return issue.message;
}

/** The line of the deepest node of the document on the field's path. */
function lineOf(
  doc: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  at: readonly PropertyKey[],
): number | undefined {
  let node: unknown = doc.contents;
  let line: number | undefined;
  for (const key of at) {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    if (range) line = lines.linePos(range[0]).line;
    if (isMap(node)) node = node.get(String(key), true);
    else if (isSeq(node) && typeof key === "number") node = node.get(key, true);
    else return line;
  }
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? lines.linePos(range[0]).line : line;
}

function firstLine(message: string): string {
  return message.split("\n")[0];
}

/** A capture or other file of the spec, resolved against the spec's folder. */
export function specPath(loaded: LoadedSpec, file: string): string {
  return path.resolve(path.dirname(loaded.file), file);
}
