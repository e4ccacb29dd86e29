// Job schemas: the seven capabilities, their parameters and input files, and a job as clients see it.
import { z } from "zod";
import {
  datasetAudit,
  datasetLabels,
  datasetName,
  datasetSplit,
  MAX_DATASET_ALERTS,
  MAX_DATASET_ATTACKS,
} from "./dataset-params.js";
import { type Capability, capabilities, jobStatuses } from "./names.js";

export const capability = z.enum(capabilities);
export const jobStatus = z.enum(jobStatuses);

/** Session options shared by every capability that extracts features. */
export const flowParams = z.object({
  // The feature sets whose columns follow the session key, in that order (GET /api/feature-sets lists them).
  features: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "a feature set's name"))
    .min(1)
    .max(8)
    .default(["tracemill"]),
  idleTimeout: z.number().positive().max(86_400).default(120),
  // At most core's MAX_ACTIVE_TIMEOUT_SEC: a session's times stay exact integers (docs/features.md, "Number formats").
  activeTimeout: z.number().positive().max(8_000_000).default(1800),
  length: z.enum(["ip", "frame"]).default("ip"),
  // Rows as CIC-IDS2017's CSVs: extract and label, features ["cic"] alone (docs/features/cic.md). Absent: false.
  cicCompat: z.boolean().optional(),
  // Packets in the nfstream set's early-packet sequences (docs/features/nfstream.md). Absent: the engine's 32.
  splt: z.number().int().min(0).max(255).optional(),
});

// Extract and label write Parquet; ipt and images keep their CSV (it goes beside the series, inside the zip).
const outputFormat = z.enum(["csv", "parquet"]).default("csv");
export const extractParams = flowParams.extend({ format: outputFormat });
export const labelParams = flowParams.extend({
  format: outputFormat,
  mode: z.enum(["binary", "multiclass"]).default("binary"),
  maxPriority: z.number().int().min(1).max(255).optional(),
});
export const iptParams = flowParams.extend({ signed: z.boolean().default(false) });
export const imagesParams = flowParams.extend({
  flowsPerImage: z.number().int().min(1).max(4096).default(16),
  keepAddresses: z.boolean().default(false),
});
export const sanitizeParams = z.object({
  ruleset: z.string().min(1).default("default"),
  minSeverity: z.number().int().min(1).max(255).default(3),
});
export const addressMapping = z.object({ from: z.string().min(1), to: z.string().min(1) });
export const mergeParams = z.object({
  /** Seconds after the background's first packet where the attack capture starts; default: the midpoint. */
  at: z.number().min(0).optional(),
  atTime: z.string().datetime({ offset: true }).optional(),
  sequential: z.boolean().default(false),
  map: z.array(addressMapping).max(256).default([]),
});

/**
 * A dataset job: its captures, attack captures and alert files are inputs; the rest of the dataset spec is here
 * (docs/datasets.md). Session options as the other jobs', with the spec's limits where they are narrower.
 */
export const datasetParams = flowParams.omit({ cicCompat: true }).extend({
  /** The card's title; the server fills it in from the job's title when absent. */
  name: datasetName.optional(),
  features: flowParams.shape.features.refine(
    (list) => new Set(list).size === list.length,
    "a feature set is named twice",
  ),
  splt: z.int().min(1).max(256).optional(),
  labels: datasetLabels.prefault({}),
  split: datasetSplit.prefault({}),
  audit: datasetAudit.prefault({}),
});
export type DatasetParams = z.output<typeof datasetParams>;

export const paramsByCapability = {
  extract: extractParams,
  label: labelParams,
  ipt: iptParams,
  images: imagesParams,
  sanitize: sanitizeParams,
  merge: mergeParams,
  dataset: datasetParams,
} as const;

/**
 * Input roles: capture (every capability but merge), attacks (label binary, merge, dataset), alerts and classification
 * (label multiclass, dataset), background (merge), rules (sanitize). provenance is never given by a client: the server
 * adds a merge's provenance record when a binary label job's (or a dataset job's) capture is that merge's output, and
 * lists it among the job's inputs.
 */
export const inputRole = z.enum([
  "capture",
  "background",
  "attacks",
  "alerts",
  "classification",
  "rules",
  "provenance",
]);
export type InputRole = z.infer<typeof inputRole>;

/**
 * File formats the server recognises on upload (from the magic bytes, not the name); "provenance" is a merge's record,
 * only ever copied from a merge job's outputs, never uploaded.
 */
export const fileFormat = z.enum([
  "pcap",
  "pcapng",
  "erf",
  "unified2",
  "eve-json",
  "classification",
  "rules",
  "provenance",
]);
export type FileFormat = z.infer<typeof fileFormat>;
export const captureFormats: readonly FileFormat[] = ["pcap", "pcapng", "erf"];

/** Which formats each input role takes. */
export const formatsByRole: Record<InputRole, readonly FileFormat[]> = {
  capture: captureFormats,
  background: captureFormats,
  attacks: captureFormats,
  alerts: ["unified2", "eve-json"],
  classification: ["classification"],
  rules: ["rules"],
  provenance: ["provenance"],
};

/**
 * Inputs each capability needs and may take (label: binary needs attacks unless its capture is a merge job's output,
 * whose provenance labels exactly; multiclass needs alerts).
 */
export const inputRolesByCapability: Record<Capability, { required: InputRole[]; optional: InputRole[] }> = {
  extract: { required: ["capture"], optional: [] },
  label: { required: ["capture"], optional: ["attacks", "alerts", "classification"] },
  ipt: { required: ["capture"], optional: [] },
  images: { required: ["capture"], optional: [] },
  sanitize: { required: ["capture"], optional: ["rules", "classification"] },
  merge: { required: ["background", "attacks"], optional: [] },
  dataset: { required: ["capture"], optional: ["attacks", "alerts", "classification"] },
};

/** Messages of job validation, shared by the server and the UI. */
export const jobMessages = {
  titleRequired: "Title is required",
  capabilityRequired: "Choose a capability",
  /** Followed by the role, e.g. "An input file is required: capture". */
  inputRequired: "An input file is required:",
  /** Followed by the role. */
  inputNotAllowed: "This capability does not take an input of role:",
  fileNotFound: "The input file was not found",
  wrongFormat: "The input file has the wrong format for its role",
  notFinished: "Only outputs of a job that succeeded can be used as inputs",
  attacksNotMerged:
    "The attack capture is not the one merged into this capture: leave it out, the merge's provenance record labels it exactly",
} as const;

/**
 * An input is an uploaded file, an output of another job the user may read, or a file of a capture library (its path
 * relative to the library, read in place).
 */
export const fileRef = z.union([
  z.object({ fileId: z.string().min(1) }),
  z.object({ jobId: z.string().min(1), output: z.string().min(1) }),
  z.object({ library: z.string().min(1), path: z.string().min(1) }),
]);
export type FileRef = z.infer<typeof fileRef>;

/** Captures one job may take. */
export const MAX_CAPTURES = 256;
/**
 * Capabilities whose jobs may take several captures: each capture runs as a part of its own, and the parts' rows are
 * combined into one output. Sanitize and merge write captures, which are not combined.
 */
export const multiCaptureCapabilities: readonly Capability[] = ["extract", "label", "ipt", "images"];
/**
 * Roles a capability reads as a list in one run, with the most files each takes: a dataset job reads all its
 * captures, attack captures and alert files together (its labels, splits and audit span them all), in no parts.
 */
export const listRolesByCapability: Partial<Record<Capability, Partial<Record<InputRole, number>>>> = {
  // provenance: the server adds a merge's record for each capture that is a merge's output, at that capture's position.
  dataset: {
    capture: MAX_CAPTURES,
    attacks: MAX_DATASET_ATTACKS,
    alerts: MAX_DATASET_ALERTS,
    provenance: MAX_CAPTURES,
  },
};

export const createJobRequest = z.object({
  title: z.string({ error: jobMessages.titleRequired }).trim().min(1, jobMessages.titleRequired).max(200),
  description: z.string().max(5000).default(""),
  public: z.boolean().default(false),
  capability: z.enum(capabilities, { error: jobMessages.capabilityRequired }),
  params: z.record(z.string(), z.unknown()).default({}),
  // Each role takes one file; `capture` also takes a list (a job over several captures, docs/api.md).
  inputs: z.partialRecord(inputRole, z.union([fileRef, z.array(fileRef).min(1).max(MAX_CAPTURES)])),
});
export type CreateJobRequest = z.input<typeof createJobRequest>;

export const updateJobRequest = z.object({
  title: z.string().trim().min(1, jobMessages.titleRequired).max(200).optional(),
  description: z.string().max(5000).optional(),
  public: z.boolean().optional(),
});
export type UpdateJobRequest = z.infer<typeof updateJobRequest>;

export const uploadedFile = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  sha256: z.string(),
  /** Detected from the magic bytes, never from the name. */
  format: fileFormat,
  /** "gzip" when the upload was compressed (the worker inflates it before a run), else null. */
  compression: z.enum(["gzip"]).nullable(),
  createdAt: z.string(),
  /** A capture library's file, read in place: the library's name and the path within it (never a server path). */
  library: z.object({ name: z.string(), path: z.string() }).optional(),
});
export type UploadedFile = z.infer<typeof uploadedFile>;

/**
 * Where an input came from when it is an earlier job's output: that job (its title and capability as they are now)
 * and the output's name. Given only when the viewer may read that job; an input is then referred to again as
 * `{jobId, output}`.
 */
export const inputSource = z.object({ jobId: z.string(), output: z.string(), title: z.string(), capability });
export type InputSource = z.infer<typeof inputSource>;

export const jobInput = uploadedFile.extend({ role: inputRole, from: inputSource.optional() });
export type JobInput = z.infer<typeof jobInput>;
export const jobOutput = z.object({
  name: z.string(),
  kind: z.string(),
  size: z.number(),
  /** SHA-256 of the file, hex (absent for outputs stored before it was recorded). */
  sha256: z.string().optional(),
});

/** One capture's run within a job over several captures. */
export const jobPart = z.object({
  index: z.number(),
  capture: z.string(),
  status: jobStatus,
  progress: z.object({ percent: z.number(), stage: z.string() }),
  error: z.string().nullable(),
});
export type JobPart = z.infer<typeof jobPart>;

/** What is suspect about a finished job's result (computed from its summary by the engine's resultWarnings). */
export const resultWarning = z.object({ code: z.string(), message: z.string() });
export type ResultWarning = z.infer<typeof resultWarning>;

export const job = z.object({
  id: z.string(),
  /** The original product identified datasets by _id; kept for its clients. */
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  public: z.boolean(),
  capability,
  params: z.record(z.string(), z.unknown()),
  status: jobStatus,
  progress: z.object({ percent: z.number(), stage: z.string() }),
  error: z.string().nullable(),
  owner: z.object({ userName: z.string() }),
  isOwner: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  inputs: z.array(jobInput),
  outputs: z.array(jobOutput),
  summary: z.record(z.string(), z.unknown()).nullable(),
  /** A succeeded run's sessions (its summary's count; sanitize: clean and attack ones); null otherwise and for merge. */
  sessions: z.number().nullable(),
  /**
   * A succeeded job whose result is suspect (damaged input, nothing matched, one class, …) says what and why; empty
   * otherwise. Codes: docs/formats.md, "Result warnings".
   */
  warnings: z.array(resultWarning),
  /** A job over several captures: its parts, one per capture, in the order the captures were given. */
  parts: z.array(jobPart).optional(),
});
export type Job = z.infer<typeof job>;

/** A Suricata ruleset the sanitize capability can use (params.ruleset names its id). */
export const ruleset = z.object({ id: z.string(), name: z.string(), description: z.string().optional() });
export type Ruleset = z.infer<typeof ruleset>;

/** A feature set a job can choose (params.features names it): its columns after the session key. */
export const featureSetInfo = z.object({
  name: z.string(),
  description: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.enum(["int", "real", "time", "string", "list"]) })),
  /** Timeouts (seconds) the CLI uses when this set is a run's only one; a client may offer them likewise. */
  defaults: z.object({ idleTimeout: z.number().optional(), activeTimeout: z.number().optional() }),
});
export type FeatureSetInfo = z.infer<typeof featureSetInfo>;

export const health = z.object({ status: z.literal("ok"), version: z.string() });
export type Health = z.infer<typeof health>;
