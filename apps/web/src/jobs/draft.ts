// The job being composed on a creation screen, and how it becomes a CreateJobRequest.
import {
  type Capability,
  type CreateJobRequest,
  type FileRef,
  type InputRole,
  listRolesByCapability,
  multiCaptureCapabilities,
  paramsByCapability,
} from "@tracemill/contracts";
import { isLocal, type PickedFile } from "./file-picker.js";

export interface Draft {
  title: string;
  description: string;
  public: boolean;
  inputs: Partial<Record<InputRole, PickedFile>>;
  /** Captures after the first, for a job over several (capabilities that combine their parts only). */
  moreCaptures: PickedFile[];
  /** Further files of roles a capability reads as lists (a dataset job's attack captures and alert files). */
  lists: Partial<Record<InputRole, PickedFile[]>>;
  params: Record<string, unknown>;
  /** Parameters the user set by hand: values the wizard derives from other choices leave these alone. */
  edited: string[];
}

/** The contracts' defaults for a capability's parameters, shown in the forms before anyone edits them. */
export function defaultParams(capability: Capability): Record<string, unknown> {
  return paramsByCapability[capability].parse({}) as Record<string, unknown>;
}

export function emptyDraft(capability: Capability): Draft {
  return {
    title: "",
    description: "",
    public: false,
    inputs: {},
    moreCaptures: [],
    lists: {},
    params: defaultParams(capability),
    edited: [],
  };
}

/** The draft with a parameter the user set. */
export function withParam(draft: Draft, name: string, value: unknown): Draft {
  const edited = draft.edited.includes(name) ? draft.edited : [...draft.edited, name];
  return { ...draft, params: { ...draft.params, [name]: value }, edited };
}

/** The draft with a parameter derived from another choice, unless the user has set it by hand. */
export function withDerivedParam(draft: Draft, name: string, value: unknown): Draft {
  return draft.edited.includes(name) ? draft : { ...draft, params: { ...draft.params, [name]: value } };
}

/** Roles a capability sends, given the chosen labelling mode. */
export function rolesFor(capability: Capability, params: Record<string, unknown>): InputRole[] {
  if (capability === "merge") return ["background", "attacks"];
  if (capability === "label")
    return params.mode === "multiclass" ? ["capture", "alerts", "classification"] : ["capture", "attacks"];
  if (capability === "sanitize") return ["capture", "rules", "classification"];
  if (capability === "dataset") return ["capture", "classification"];
  return ["capture"];
}

/** Whether a capability's job takes several captures: run as parts, or read together (a dataset job). */
export function takesSeveralCaptures(capability: Capability): boolean {
  return multiCaptureCapabilities.includes(capability) || listRolesByCapability[capability]?.capture !== undefined;
}

/** The picked files a request of this draft sends, by role: one file, or a list (several captures, a list role). */
function sentByRole(capability: Capability, draft: Draft): Partial<Record<InputRole, PickedFile | PickedFile[]>> {
  const sent: Partial<Record<InputRole, PickedFile | PickedFile[]>> = {};
  for (const role of rolesFor(capability, draft.params)) {
    const picked = draft.inputs[role];
    if (picked) sent[role] = picked;
  }
  if (draft.inputs.capture && draft.moreCaptures.length > 0 && takesSeveralCaptures(capability)) {
    sent.capture = [draft.inputs.capture, ...draft.moreCaptures];
  }
  for (const [role, list] of Object.entries(draft.lists) as [InputRole, PickedFile[]][]) {
    if (list.length > 0 && listRolesByCapability[capability]?.[role] !== undefined) sent[role] = list;
  }
  return sent;
}

/** The files of the user's disk the request sends, each once, in the order it lists them: what submit uploads. */
export function localFiles(capability: Capability, draft: Draft): File[] {
  const refs = Object.values(sentByRole(capability, draft)).flatMap((sent) => [sent ?? []].flat().map((p) => p.ref));
  return [...new Set(refs.filter(isLocal).map((ref) => ref.local))];
}

/** Every picked file of the draft changed by `change` (its inputs, further captures and lists). */
function mapPicked(draft: Draft, change: (picked: PickedFile) => PickedFile): Draft {
  return {
    ...draft,
    inputs: Object.fromEntries(
      Object.entries(draft.inputs).map(([role, picked]) => [role, picked && change(picked)]),
    ) as Draft["inputs"],
    moreCaptures: draft.moreCaptures.map(change),
    lists: Object.fromEntries(
      Object.entries(draft.lists).map(([role, list]) => [role, list?.map(change)]),
    ) as Draft["lists"],
  };
}

/** The draft with the files now on the server referred to by their ids, so a second submit sends nothing again. */
export function withUploaded(draft: Draft, refs: ReadonlyMap<File, FileRef>): Draft {
  return mapPicked(draft, (picked) => {
    const ref = isLocal(picked.ref) ? refs.get(picked.ref.local) : undefined;
    return ref ? { ...picked, ref, problem: undefined } : picked;
  });
}

/** The draft with the reason a file's upload failed, at every place that file was picked. */
export function withUploadProblem(draft: Draft, file: File, problem: string): Draft {
  return mapPicked(draft, (picked) =>
    isLocal(picked.ref) && picked.ref.local === file ? { ...picked, problem } : picked,
  );
}

/** The request of a draft whose files are all on the server (upload-picked.ts first uploads the others). */
export function toRequest(capability: Capability, draft: Draft): CreateJobRequest {
  const inputs: CreateJobRequest["inputs"] = {};
  const onServer = ({ ref, name }: PickedFile): FileRef => {
    if (isLocal(ref)) throw new Error(`${name} is not uploaded yet`);
    return ref;
  };
  const sent = Object.entries(sentByRole(capability, draft)) as [InputRole, PickedFile | PickedFile[]][];
  for (const [role, files] of sent) {
    inputs[role] = Array.isArray(files) ? files.map(onServer) : onServer(files);
  }
  const params = Object.fromEntries(
    Object.entries(draft.params).filter(([, value]) => value !== undefined && value !== ""),
  );
  return {
    title: draft.title.trim(),
    description: draft.description,
    public: draft.public,
    capability,
    params,
    inputs,
  };
}
