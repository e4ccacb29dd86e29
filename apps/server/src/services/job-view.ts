// Turns job rows into the Job clients see (contracts), loading inputs and outputs for many jobs in two queries.
// What a job says in words (error, stage, summary) passes through `hide` (user-paths.ts) on the way out, whoever
// wrote it: the worker names no server path, and a message written elsewhere (a failed start, a store error) is
// cleaned here.
import type {
  Capability,
  FileFormat,
  InputRole,
  InputSource,
  Job,
  JobInput,
  JobStatus,
  UploadedFile,
} from "@tracemill/contracts";
import { resultWarnings } from "@tracemill/engine/result-warnings";
import type { NewFile } from "../repositories/files.js";
import type { JobPartRow } from "../repositories/job-parts.js";
import type { JobInputRow, JobRow, jobsRepository } from "../repositories/jobs.js";
import { readableBy } from "./lineage.js";

export function fileView(file: NewFile): UploadedFile {
  return {
    id: file.id,
    name: file.name,
    size: Number(file.size),
    sha256: file.sha256,
    format: file.format as FileFormat,
    compression: file.compression === "gzip" ? "gzip" : null,
    createdAt: file.created_at,
    ...(file.library && file.library_path && { library: { name: file.library, path: file.library_path } }),
  };
}

export async function jobViews(
  jobs: ReturnType<typeof jobsRepository>,
  rows: JobRow[],
  viewerId: string | null,
  hide: (text: string) => string,
  partsOf: (...parentIds: string[]) => Promise<JobPartRow[]>,
): Promise<Job[]> {
  const ids = rows.map((r) => r.id);
  const [inputs, outputs, parts] = await Promise.all([
    jobs.inputsOf(ids),
    jobs.outputsOf(ids),
    partsOf(...rows.filter((r) => r.part_count > 0).map((r) => r.id)),
  ]);
  // Inputs brought in from other jobs' outputs name those jobs, only when the viewer may read them.
  const sourceIds = [...new Set(inputs.flatMap((i) => (i.source_job_id ? [i.source_job_id] : [])))];
  const sources = new Map(
    (await jobs.briefsOf(sourceIds)).filter(readableBy(viewerId)).map((source) => [source.id, source]),
  );
  return rows.map((row) => viewOf(row));

  function inputOf(input: JobInputRow): JobInput {
    const source = input.source_job_id ? sources.get(input.source_job_id) : undefined;
    const from: InputSource | undefined =
      source && input.source_output
        ? {
            jobId: source.id,
            output: input.source_output,
            title: source.title,
            capability: source.capability as Capability,
          }
        : undefined;
    return { ...fileView(input), role: input.role as InputRole, ...(from && { from }) };
  }

  function viewOf(row: JobRow): Job {
    const summary = row.summary ? (JSON.parse(hide(row.summary)) as Record<string, unknown>) : null;
    return {
      id: row.id,
      _id: row.id,
      title: row.title,
      description: row.description,
      public: row.public === 1,
      capability: row.capability as Capability,
      params: JSON.parse(row.params) as Record<string, unknown>,
      status: row.status as JobStatus,
      progress: { percent: row.percent, stage: hide(row.stage) },
      error: row.error === null ? null : hide(row.error),
      owner: { userName: row.owner_name },
      isOwner: viewerId === row.owner_id,
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      inputs: inputs.filter((i) => i.job_id === row.id).map(inputOf),
      outputs: outputs
        .filter((o) => o.job_id === row.id)
        .map((o) => ({ name: o.name, kind: o.kind, size: Number(o.size), ...(o.sha256 && { sha256: o.sha256 }) })),
      summary,
      sessions: row.sessions === null ? null : Number(row.sessions),
      // Read from the summary on every view, so that jobs finished before a warning existed show it too.
      warnings: row.status === "succeeded" && summary ? resultWarnings(summary) : [],
      ...(row.part_count > 0 && {
        parts: parts
          .filter((p) => p.parent_id === row.id)
          .map((p) => ({
            index: Number(p.part_index),
            capture: p.capture,
            status: p.status as JobStatus,
            progress: { percent: p.percent, stage: hide(p.stage) },
            error: p.error === null ? null : hide(p.error),
          })),
      }),
    };
  }
}
