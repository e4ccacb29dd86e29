// The session options of the pass (timeouts, packet length), with their defaults and their checks.
import { MAX_ACTIVE_TIMEOUT_SEC, MAX_IDLE_TIMEOUT_SEC, TracemillError } from "@tracemill/core";

export interface FlowOptions {
  /** Seconds without a packet after which a session ends. Default 120. */
  idleTimeout?: number;
  /** Seconds after its first packet at which a session ends (the next packet starts a new one). Default 1800. */
  activeTimeout?: number;
  /** Bytes a packet counts for: the IP packet length (default) or the frame's original length on the wire. */
  length?: "ip" | "frame";
}

/** The session options with their defaults, or BAD_OPTION naming the one that is wrong. */
export function checkedFlowOptions(options: FlowOptions): Required<FlowOptions> {
  const idleTimeout = options.idleTimeout ?? 120;
  const activeTimeout = options.activeTimeout ?? 1800;
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
  return { idleTimeout, activeTimeout, length };
}
