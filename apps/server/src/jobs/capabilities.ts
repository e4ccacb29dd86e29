// The one place that maps each capability to the engine function that runs it (used by the worker process).
import type { Capability, InputRole } from "@tracemill/contracts";
import type { CapabilityResult, RunOptions } from "@tracemill/engine";

/** Input files by role (paths on disk) and validated parameters, as the worker hands them to a capability. */
export interface CapabilityRun {
  inputs: Partial<Record<InputRole, string>>;
  params: Record<string, unknown>;
}

export type CapabilityRunner = (run: CapabilityRun, options: RunOptions) => Promise<CapabilityResult>;

/** Capabilities whose engine function this build has. A capability missing here fails with "not available". */
const wired: Partial<Record<Capability, CapabilityRunner>> = {};

/**
 * The runner of a capability. `testModule` (TRACEMILL_TEST_ENGINE_MODULE, set only by the test suite on the server
 * process) provides runners by capability name so the queue can be tested without the engine.
 */
export async function capabilityRunner(
  capability: Capability,
  testModule: string | null,
): Promise<CapabilityRunner | null> {
  if (testModule) {
    const fakes = (await import(testModule)) as Partial<Record<Capability, CapabilityRunner>>;
    if (fakes[capability]) return fakes[capability];
  }
  return wired[capability] ?? null;
}

export function wiredCapabilities(): Capability[] {
  return Object.keys(wired) as Capability[];
}
