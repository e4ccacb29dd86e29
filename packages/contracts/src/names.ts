// The contracts' names, limits and messages, without zod: what the web app's first screens need, so its first script
// carries no schema (the schemas import these, and index.ts exports both).

export const capabilities = ["extract", "label", "ipt", "images", "sanitize", "merge", "dataset"] as const;
export type Capability = (typeof capabilities)[number];

export const jobStatuses = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type JobStatus = (typeof jobStatuses)[number];

/** Each capability as people name it: the web app's titles, and what a list search matches beside the id. */
export const capabilityNames: Record<Capability, string> = {
  extract: "Feature Extraction",
  sanitize: "Traffic Sanitization",
  merge: "Controlled Traffic Aggregation",
  label: "Automated Traffic Labeling",
  ipt: "Time Series Generator (IPT)",
  images: "Grayscale Image Generator",
  dataset: "Dataset Builder",
};

/** A job's outcome as lists filter and sort it: its status, with "warning" for a success whose result is suspect. */
export const jobOutcomes = ["queued", "running", "succeeded", "warning", "failed", "cancelled"] as const;
export type JobOutcome = (typeof jobOutcomes)[number];

export const jobSortKeys = ["title", "capability", "status", "sessions", "size", "created", "runtime"] as const;
export type JobSortKey = (typeof jobSortKeys)[number];
export type SortOrder = "asc" | "desc";

/** Words read A to Z first; quantities and times largest (newest) first, as people usually want them. */
export function defaultOrder(sort: JobSortKey): SortOrder {
  return sort === "title" || sort === "capability" || sort === "status" ? "asc" : "desc";
}

export const JOB_PAGE_SIZE = 50;
export const MAX_JOB_PAGE_SIZE = 200;

// Account messages are the ones SPEC.md §5 spells; the UI and the server use these same texts.
export const MIN_PASSWORD_LENGTH = 8;

export const messages = {
  userRequired: "User is required",
  emailRequired: "Email is required",
  emailInvalid: "Email is not valid",
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  passwordMismatch: "Password not match",
  noLogin: "no login",
  badCredentials: "Email or password is incorrect",
  emailTaken: "Email is already registered",
  /** Followed by the number of seconds to wait, e.g. "… try again in 4 seconds". */
  tooManyAttempts: "Too many failed sign-ins; try again in",
  signInRequired: "Please sign in",
} as const;
