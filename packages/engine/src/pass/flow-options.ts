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
  /**
   * Rows exactly as a CIC-IDS2017 "TrafficLabelling" CSV has them (docs/features/cic.md, "--cic-compat"); only with
   * `features` ["cic"]. Default false.
   */
  cicCompat?: boolean;
}

/**
 * The checked options: `splt` only when the nfstream set is chosen, `cicCompat` only when true (a run summary names
 * what shaped its rows, and other runs' summaries stay as they were).
 */
export type CheckedFlowOptions = Required<Omit<FlowOptions, "splt" | "cicCompat">> & {
  splt?: number;
  cicCompat?: true;
};

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
  const cicCompat = options.cicCompat ?? false;
  if (typeof cicCompat !== "boolean") {
    throw new TracemillError("BAD_OPTION", `--cic-compat must be true or false (got ${String(cicCompat)})`, {
      cicCompat,
    });
  }
  if (cicCompat && !(features.length === 1 && features[0] === "cic")) {
    throw new TracemillError(
      "BAD_OPTION",
      `--cic-compat writes CIC-IDS2017's columns, which are the cic set's: give --features cic alone (got ${features.join(",")})`,
      { features: features.join(",") },
    );
  }
  const checked: CheckedFlowOptions = { features, idleTimeout, activeTimeout, length };
  if (features.includes("nfstream")) checked.splt = splt;
  if (cicCompat) checked.cicCompat = true;
  return checked;
}

/**
 * The refusal of `--cic-compat` by a capability whose CSV is not a CIC-IDS2017 file's (ipt, images: their other
 * outputs are read beside Tracemill's rows).
 */
export function cicCompatRefused(capability: string): TracemillError {
  return new TracemillError(
    "BAD_OPTION",
    `--cic-compat is for extract and label: ${capability} writes Tracemill's rows beside its own outputs`,
    { cicCompat: true },
  );
}
