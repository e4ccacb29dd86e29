// Prints an error as one line on stderr (with the stack only under --debug): a TracemillError as it says; a Node file
// system or zlib error that escaped the engine by the file and reason it carries (the input's fault, not a bug);
// anything else as an internal error.
import { isTracemillError } from "@tracemill/core/errors";

export function reportError(error: unknown, debug: boolean): void {
  const message = isTracemillError(error)
    ? error.message
    : (systemErrorMessage(error) ?? `internal error: ${error instanceof Error ? error.message : String(error)}`);
  process.stderr.write(`tracemill: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
}

interface SystemError {
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
  path?: unknown;
  dest?: unknown;
  message?: unknown;
}

/**
 * "x.json: ENOENT: no such file or directory" for a Node system error (ENOENT, EACCES, EISDIR, ENOSPC, EMFILE, …),
 * "damaged gzip data (…)" for a zlib error; undefined for anything else.
 */
export function systemErrorMessage(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as SystemError;
  const message = typeof e.message === "string" ? e.message : "";
  if (typeof e.code !== "string") return undefined;
  if (/^Z_[A-Z_]+$/.test(e.code) && typeof e.errno === "number") {
    return e.code === "Z_BUF_ERROR" ? `gzip data cut short (${message})` : `damaged gzip data (${message})`;
  }
  if (!/^E[A-Z0-9]+$/.test(e.code) || typeof e.syscall !== "string") return undefined;
  // Node's text is "CODE: reason, syscall 'path' -> 'dest'": the file goes first instead.
  const reason = message.replace(/, \w+( '.*')?$/, "") || e.code;
  if (typeof e.path === "string") {
    const target = typeof e.dest === "string" ? ` → ${e.dest}` : "";
    return `${e.path}${target}: ${reason}`;
  }
  return `${e.syscall === "read" ? "reading a file" : e.syscall === "write" ? "writing a file" : e.syscall} failed (${reason})`;
}
