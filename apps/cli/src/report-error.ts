// Prints an error as one line on stderr (with the stack only under --debug).
import { isTracemillError } from "@tracemill/core/errors";

export function reportError(error: unknown, debug: boolean): void {
  const message = error instanceof Error ? error.message : String(error);
  const prefix = isTracemillError(error) ? "tracemill" : "tracemill: internal error";
  process.stderr.write(`${prefix}: ${message}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
}
