// The job being composed on a creation screen, and how it becomes a CreateJobRequest.
import { type Capability, type CreateJobRequest, type InputRole, paramsByCapability } from "@tracemill/contracts";
import type { PickedFile } from "./file-picker.js";

export interface Draft {
  title: string;
  description: string;
  public: boolean;
  inputs: Partial<Record<InputRole, PickedFile>>;
  params: Record<string, unknown>;
}

/** The contracts' defaults for a capability's parameters, shown in the forms before anyone edits them. */
export function defaultParams(capability: Capability): Record<string, unknown> {
  return paramsByCapability[capability].parse({}) as Record<string, unknown>;
}

export function emptyDraft(capability: Capability): Draft {
  return { title: "", description: "", public: false, inputs: {}, params: defaultParams(capability) };
}

/** Roles a capability sends, given the chosen labelling mode. */
export function rolesFor(capability: Capability, params: Record<string, unknown>): InputRole[] {
  if (capability === "merge") return ["background", "attacks"];
  if (capability === "label")
    return params.mode === "multiclass" ? ["capture", "alerts", "classification"] : ["capture", "attacks"];
  if (capability === "sanitize") return ["capture", "rules", "classification"];
  return ["capture"];
}

export function toRequest(capability: Capability, draft: Draft): CreateJobRequest {
  const inputs: CreateJobRequest["inputs"] = {};
  for (const role of rolesFor(capability, draft.params)) {
    const picked = draft.inputs[role];
    if (picked) inputs[role] = picked.ref;
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
