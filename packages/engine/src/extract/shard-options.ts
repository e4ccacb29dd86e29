// The options of `extract --threads N`: the thread count, and the session options checked as the single pass does.
import { TracemillError } from "@tracemill/core";
import type { FlowOptions } from "./flow-pipeline.js";

export const MAX_THREADS = 64;

/** `threads`, or BAD_OPTION unless it is an integer from 1 to 64. */
export function checkedThreads(threads: unknown): number {
  if (typeof threads === "number" && Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)
    return threads;
  throw new TracemillError("BAD_OPTION", `--threads must be an integer from 1 to ${MAX_THREADS} (got ${threads})`, {
    threads: String(threads),
  });
}

/**
 * The session options with their defaults, or BAD_OPTION naming the one that is wrong: the checks of runSessionPass
 * (its own are private to it), so that both paths accept and report the same options.
 */
export function checkedFlowOptions(options: FlowOptions): Required<FlowOptions> {
  const idleTimeout = options.idleTimeout ?? 120;
  const activeTimeout = options.activeTimeout ?? 1800;
  const length = options.length ?? "ip";
  for (const [name, value] of [
    ["idle timeout", idleTimeout],
    ["active timeout", activeTimeout],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new TracemillError("BAD_OPTION", `the ${name} must be a positive number of seconds (got ${value})`, {
        [name]: value,
      });
    }
  }
  if (length !== "ip" && length !== "frame") {
    throw new TracemillError("BAD_OPTION", `--length must be "ip" or "frame" (got ${String(length)})`, { length });
  }
  return { idleTimeout, activeTimeout, length };
}
