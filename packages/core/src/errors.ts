// Typed errors with a code and context: thrown by the core and the engine, mapped to exit codes and HTTP statuses at the edges.

export type ErrorCode =
  /** The input is not something Tracemill can read (wrong format, damaged beyond use). */
  | "BAD_INPUT"
  /** The input file is damaged part-way: packets before the damage were processed. */
  | "DAMAGED_INPUT"
  /** An option or parameter is out of range or contradictory. */
  | "BAD_OPTION"
  /** A file is missing or unreadable. */
  | "NOT_FOUND"
  /** A required external program (Suricata, …) is missing or failed. */
  | "TOOL_FAILED"
  /** An output could not be written (missing directory, no permission, disk full); no partial output is left. */
  | "OUTPUT_FAILED"
  /** The run was cancelled. */
  | "CANCELLED";

export interface ErrorContext {
  /** The file the error is about, as the user named it. */
  file?: string;
  /** Byte offset in that file where the problem was found. */
  offset?: number;
  [key: string]: unknown;
}

export class TracemillError extends Error {
  readonly code: ErrorCode;
  readonly context: ErrorContext;

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}) {
    super(message);
    this.name = "TracemillError";
    this.code = code;
    this.context = context;
  }
}

export function isTracemillError(error: unknown): error is TracemillError {
  return error instanceof TracemillError;
}
