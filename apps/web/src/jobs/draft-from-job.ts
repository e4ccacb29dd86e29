// "Run again with changes": a job as a new draft of the viewer's, its inputs as references the server accepts from
// them — an earlier job's output by {jobId, output}, a library's file by {library, path}, a file by its id only when
// it is the viewer's own. Another user's file (an upload, or an output of a job the viewer may not read) cannot be
// referred to: its place is left empty, with a notice.
import {
  type Capability,
  datasetNameOf,
  type InputRole,
  type Job,
  type JobInput,
  listRolesByCapability,
} from "@tracemill/contracts";
import { type Draft, defaultParams, emptyDraft, takesSeveralCaptures } from "./draft.js";
import type { PickedFile } from "./file-picker.js";

/** The longest title the server takes (contracts' createJobRequest). */
const MAX_TITLE = 200;
const AGAIN = " (again)";

export interface DraftFromJob {
  draft: Draft;
  /** What the viewer must choose again: inputs they may not reuse, one sentence each. */
  notices: string[];
}

/** The input as a file the viewer may pick, or undefined when it is someone else's file. */
function reusable(input: JobInput, job: Job): PickedFile | undefined {
  const size = input.size;
  if (input.from) {
    const { jobId, output, title, capability } = input.from;
    return { ref: { jobId, output }, name: `${title} / ${output}`, size, fromCapability: capability };
  }
  if (input.library) return { ref: { library: input.library.name, path: input.library.path }, name: input.name, size };
  if (job.isOwner) return { ref: { fileId: input.id }, name: input.name, size };
  return undefined;
}

/** The job's parameters with the defaults under them; those that differ from the defaults count as set by hand. */
function paramsOf(job: Job): Pick<Draft, "params" | "edited"> {
  const defaults = defaultParams(job.capability);
  const params = { ...defaults, ...job.params };
  // A dataset named after its job's title (the server's default) is named after the new title instead.
  if (job.capability === "dataset" && params.name === datasetNameOf(job.title)) delete params.name;
  const edited = Object.keys(params).filter((name) => JSON.stringify(params[name]) !== JSON.stringify(defaults[name]));
  return { params, edited };
}

export function draftFromJob(job: Job): DraftFromJob {
  const capability: Capability = job.capability;
  const draft: Draft = {
    ...emptyDraft(capability),
    ...paramsOf(job),
    title: `${job.title.slice(0, MAX_TITLE - AGAIN.length)}${AGAIN}`,
    description: job.description,
    // A clone of someone else's job is the viewer's own, private until they share it.
    public: job.isOwner && job.public,
  };
  const notices: string[] = [];
  const byRole = new Map<InputRole, PickedFile[]>();
  for (const input of job.inputs) {
    // The server brings a merge's provenance record in by itself when the capture is that merge's output.
    if (input.role === "provenance") continue;
    const picked = reusable(input, job);
    if (!picked) {
      notices.push(
        `${input.name} (${input.role}) is ${job.owner.userName}'s file, which only they can use: choose a file of yours in its place.`,
      );
      continue;
    }
    byRole.set(input.role, [...(byRole.get(input.role) ?? []), picked]);
  }
  for (const [role, files] of byRole) {
    if (role === "capture") {
      draft.inputs.capture = files[0];
      if (takesSeveralCaptures(capability)) draft.moreCaptures = files.slice(1);
    } else if (listRolesByCapability[capability]?.[role] !== undefined) {
      draft.lists[role] = files;
    } else {
      draft.inputs[role] = files[0];
    }
  }
  return { draft, notices };
}
