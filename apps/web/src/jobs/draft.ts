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
import type { PickedFile } from "./file-picker.js";

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

export function toRequest(capability: Capability, draft: Draft): CreateJobRequest {
  const inputs: CreateJobRequest["inputs"] = {};
  for (const role of rolesFor(capability, draft.params)) {
    const picked = draft.inputs[role];
    if (picked) inputs[role] = picked.ref;
  }
  if (inputs.capture && draft.moreCaptures.length > 0 && takesSeveralCaptures(capability)) {
    inputs.capture = [inputs.capture as FileRef, ...draft.moreCaptures.map((picked) => picked.ref)];
  }
  for (const [role, list] of Object.entries(draft.lists) as [InputRole, PickedFile[]][]) {
    if (list.length > 0 && listRolesByCapability[capability]?.[role] !== undefined) {
      inputs[role] = list.map((picked) => picked.ref);
    }
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
