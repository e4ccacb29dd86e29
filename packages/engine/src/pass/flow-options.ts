// The session options of the pass (feature sets, timeouts, packet length, sequence length), with their defaults and
// their checks.
import { TracemillError } from "@tracemill/core/errors";
import { DEFAULT_SPLT, featureSetsNamed, MAX_SPLT } from "@tracemill/core/features";
import { MAX_ACTIVE_TIMEOUT_SEC, MAX_IDLE_TIMEOUT_SEC } from "@tracemill/core/flow";

export interface FlowOptions {
  /**
   * The feature sets whose columns the rows carry after the session key, by name, in that order (core/features,
   * FEATURE_SETS). Default ["tracemill"].
   */
  features?: readonly string[];
  /** Seconds without a packet after which a session ends. Default 120 (or the only set's own default). */
  idleTimeout?: number;
  /**
   * Seconds after its first packet at which a session ends (the next packet starts a new one). Default 1800 (or the
   * only set's own default).
   */
  activeTimeout?: number;
  /** Bytes a packet counts for: the IP packet length (default) or the frame's original length on the wire. */
  length?: "ip" | "frame";
  /** Packets in the nfstream set's early-packet sequences, 0 to MAX_SPLT (255). Default 32; no effect without it. */
  splt?: number;
}

/** The checked options: `splt` only when the nfstream set is chosen (a run summary names what shaped its rows). */
export type CheckedFlowOptions = Required<Omit<FlowOptions, "splt">> & { splt?: number };

/** The session options with their defaults, or BAD_OPTION naming the one that is wrong. */
export function checkedFlowOptions(options: FlowOptions): CheckedFlowOptions {
  const sets = featureSetsNamed(options.features ?? []);
  // A set that reproduces a tool's sessions brings that tool's timeouts, when it is the only set of the run.
  const own = sets.length === 1 ? sets[0].defaults : undefined;
  const features = sets.map((set) => set.name);
  const idleTimeout = options.idleTimeout ?? own?.idleTimeout ?? 120;
  const activeTimeout = options.activeTimeout ?? own?.activeTimeout ?? 1800;
  const length = options.length ?? "ip";
  for (const [name, value, max] of [
    ["idle timeout", idleTimeout, MAX_IDLE_TIMEOUT_SEC],
    ["active timeout", activeTimeout, MAX_ACTIVE_TIMEOUT_SEC],
  ] as const) {
    if (!(value > 0 && value <= max)) {
      throw new TracemillError(
        "BAD_OPTION",
        `the ${name} must be a positive number of seconds up to ${max} (got ${value})`,
        { [name]: value },
      );
    }
  }
  if (length !== "ip" && length !== "frame") {
    throw new TracemillError("BAD_OPTION", `--length must be "ip" or "frame" (got ${String(length)})`, { length });
  }
  const splt = options.splt ?? DEFAULT_SPLT;
  if (!(Number.isInteger(splt) && splt >= 0 && splt <= MAX_SPLT)) {
    throw new TracemillError("BAD_OPTION", `--splt must be a whole number from 0 to ${MAX_SPLT} (got ${splt})`, {
      splt,
    });
  }
  const checked = { features, idleTimeout, activeTimeout, length };
  return features.includes("nfstream") ? { ...checked, splt } : checked;
}
