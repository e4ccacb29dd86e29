// The one place that maps each capability to the engine function that runs it (used by the worker process).
import { type Capability, type InputRole, paramsByCapability } from "@tracemill/contracts";
import type { CapabilityResult, DaemonSource, RunOptions } from "@tracemill/engine";
import { type ListedInput, runDataset } from "./dataset-run.js";

/** The engine is loaded by the worker only when a capability of it runs (a worker runs one job, then exits). */
let loaded: Promise<typeof import("@tracemill/engine")> | null = null;
const engine = () => {
  loaded ??= import("@tracemill/engine");
  return loaded;
};

/** Resolves once the worker threads the engine is ending have ended (at once when it never ran). */
export async function engineWorkersRetired(): Promise<void> {
  if (loaded !== null) await (await loaded).workersRetired();
}

/** Input files by role (paths on disk) and validated parameters, as the worker hands them to a capability. */
export interface CapabilityRun {
  inputs: Partial<Record<InputRole, string>>;
  /** SHA-256 (hex) of input files as the server stored them, by role, where known. */
  hashes?: Partial<Record<InputRole, string>>;
  /** Roles the capability reads as lists in one run (a dataset job's), with their places and stored digests. */
  lists?: Partial<Record<InputRole, ListedInput[]>>;
  params: Record<string, unknown>;
  /** The server's rulesets directory (searched after the bundled rulesets). */
  rulesetsDir: string;
  /** Loaded Suricatas the pool lends (sanitize scans with them instead of starting its own). */
  daemons?: DaemonSource;
}

export type CapabilityRunner = (run: CapabilityRun, options: RunOptions) => Promise<CapabilityResult>;

/** Job inputs are checked at creation; a role missing here is a bug, not a user's mistake. */
function input(run: CapabilityRun, role: InputRole): string {
  const file = run.inputs[role];
  if (!file) throw new Error(`the job has no ${role} input`);
  return file;
}

/** Every capability's engine function, adapted to the job's inputs and validated parameters. */
const wired: Record<Capability, CapabilityRunner> = {
  extract: async (run, options) =>
    (await engine()).extractFeatures(input(run, "capture"), {
      ...paramsByCapability.extract.parse(run.params),
      ...options,
    }),

  label: async (run, options) => {
    const { mode, ...params } = paramsByCapability.label.parse(run.params);
    // Binary: a merge's provenance record (added by the server when the capture is that merge's output) labels
    // exactly and wins over the attack capture, as in the CLI; otherwise 5-tuples of the attack capture. Stored files
    // have no record beside them, so the engine never looks for one there.
    const provenance = mode === "binary" ? run.inputs.provenance : undefined;
    const source = provenance
      ? { provenance }
      : mode === "binary"
        ? { provenance: false as const, attacks: input(run, "attacks") }
        : { provenance: false as const, alerts: input(run, "alerts") };
    return (await engine()).labelCapture(
      input(run, "capture"),
      {
        ...params,
        ...source,
        ...(run.inputs.classification && { classification: run.inputs.classification }),
      },
      options,
    );
  },

  ipt: async (run, options) =>
    (await engine()).extractIpt(input(run, "capture"), paramsByCapability.ipt.parse(run.params), options),

  images: async (run, options) =>
    (await engine()).extractImages(input(run, "capture"), paramsByCapability.images.parse(run.params), options),

  sanitize: async (run, options) => {
    const { ruleset, minSeverity } = paramsByCapability.sanitize.parse(run.params);
    const { bundledRulesetsDir, resolveRuleset, sanitize } = await engine();
    const rules = run.inputs.rules;
    // Names are unique across both places: adding a ruleset refuses bundled names.
    const resolved = rules ? null : await resolveRuleset(ruleset, [bundledRulesetsDir, run.rulesetsDir]);
    return sanitize(
      input(run, "capture"),
      {
        ...(rules ? { ruleFiles: [rules] } : { ruleset: resolved?.dir }),
        ...(run.inputs.classification && { classificationFile: run.inputs.classification }),
        minSeverity,
        // A ruleset uploaded with the job is used once: its own Suricata process, not a daemon kept loaded.
        ...(!rules && { daemons: run.daemons }),
      },
      options,
    );
  },

  merge: async (run, options) => {
    const { at, atTime, sequential, map } = paramsByCapability.merge.parse(run.params);
    return (await engine()).mergeCaptures(input(run, "background"), input(run, "attacks"), {
      ...(at !== undefined && { at: String(at) }),
      ...(atTime !== undefined && { atTime }),
      sequential,
      mappings: map,
      ...options,
    });
  },

  dataset: (run, options) =>
    runDataset(paramsByCapability.dataset.parse(run.params), run.lists ?? {}, run.inputs.classification, options),
};

/**
 * The runner of a capability. `testModule` (TRACEMILL_TEST_ENGINE_MODULE, set only by the test suite on the server
 * process) provides runners by capability name so the queue can be tested with predictable jobs.
 */
export async function capabilityRunner(capability: Capability, testModule: string | null): Promise<CapabilityRunner> {
  if (testModule) {
    const fakes = (await import(testModule)) as Partial<Record<Capability, CapabilityRunner>>;
    if (fakes[capability]) return fakes[capability];
  }
  const runner = wired[capability];
  return (run, options) => runner(run, { ...options, inputHashes: inputHashes(run) });
}

/**
 * The stored inputs' digests by the path the capability is given: it records them rather than hashing the files
 * again (the server hashed each as it was uploaded).
 */
function inputHashes(run: CapabilityRun): Record<string, string> {
  const byPath: Record<string, string> = {};
  for (const [role, hash] of Object.entries(run.hashes ?? {})) {
    const file = run.inputs[role as InputRole];
    if (file !== undefined && hash !== undefined) byPath[file] = hash;
  }
  return byPath;
}
