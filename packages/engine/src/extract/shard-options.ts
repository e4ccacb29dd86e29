// The thread count of `extract --threads N`.
import { TracemillError } from "@tracemill/core";

export const MAX_THREADS = 64;

/** `threads`, or BAD_OPTION unless it is an integer from 1 to 64. */
export function checkedThreads(threads: unknown): number {
  if (typeof threads === "number" && Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)
    return threads;
  throw new TracemillError("BAD_OPTION", `--threads must be an integer from 1 to ${MAX_THREADS} (got ${threads})`, {
    threads: String(threads),
  });
}
