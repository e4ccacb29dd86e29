// Messages between the server and a worker process (over the IPC channel of child_process.fork).
import type { Capability, InputRole } from "@tracemill/contracts";
import type { OutputFile } from "@tracemill/engine";
import type { DaemonReply, DaemonRequest } from "./daemon-lending.js";

export interface RunInput {
  path: string;
  name?: string;
  compression: string | null;
  sha256?: string;
}

export interface RunMessage {
  type: "run";
  jobId: string;
  capability: Capability;
  params: Record<string, unknown>;
  /**
   * Paths by role, the name the file was uploaded under (summaries show it), with "gzip" when the file must be
   * inflated before the engine reads it, and the SHA-256 the server took of the stored file (a merge records it
   * instead of hashing the file again).
   */
  inputs: Partial<Record<InputRole, RunInput>>;
  /** Roles a capability reads as lists in one run (listRolesByCapability: a dataset job's), in their order. */
  lists?: Partial<Record<InputRole, (RunInput & { position: number })[]>>;
  outDir: string;
  workDir: string;
  testEngineModule: string | null;
  rulesetsDir: string;
  /** The pool lends loaded Suricatas (daemon-lending.ts): a sanitize job borrows one rather than start its own. */
  suricataDaemons?: boolean;
  /** A job over several captures, its parts all done: this run combines their outputs instead (engine/combine). */
  parts?: CombinedPart[];
}

/** A part's outputs as the combining run reads them: where each is, and the SHA-256 recorded for it. */
export interface CombinedPart {
  capture: string;
  outputs: (OutputFile & { path: string; sha256: string | null })[];
  summary: Record<string, unknown>;
}

export type ToWorker = RunMessage | { type: "cancel" } | DaemonReply;

export type FromWorker =
  | { type: "progress"; percent: number; stage: string }
  | { type: "done"; outputs: (OutputFile & { sha256: string })[]; summary: Record<string, unknown> }
  | { type: "failed"; message: string; code: string }
  | DaemonRequest;
