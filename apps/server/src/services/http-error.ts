// A failure a service reports to the edge: an HTTP status and messages a person can read.
import { messages } from "@tracemill/contracts";
import type { ZodError } from "zod";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join("; "));
  }
}

export const notFound = () => new HttpError(404, ["Not found"]);
export const signInRequired = () => new HttpError(401, [messages.signInRequired]);

/** The messages of a failed validation, each once, in field order. */
export function validationError(error: ZodError): HttpError {
  return new HttpError(400, [...new Set(error.issues.map((issue) => issue.message))]);
}
