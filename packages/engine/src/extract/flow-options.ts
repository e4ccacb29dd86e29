// The session options (timeouts, packet length) checked once for the single pass and `--threads N` alike.
import { MAX_ACTIVE_TIMEOUT_SEC, MAX_IDLE_TIMEOUT_SEC, TracemillError } from "@tracemill/core";
import type { FlowOptions } from "./flow-pipeline.js";

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
