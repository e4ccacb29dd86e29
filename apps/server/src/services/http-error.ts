// A failure a service reports to the edge: an HTTP status and messages a person can read.
import { messages } from "@tracemill/contracts";
import { isTracemillError } from "@tracemill/core/errors";
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

/**
 * What the engine could not read is said in its words (which name the output, never a path): 422, since the request
 * is right and the file is not. A file gone meanwhile is a job deleted meanwhile: 404.
 */
export async function answered<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isTracemillError(error) && (error.code === "BAD_INPUT" || error.code === "DAMAGED_INPUT")) {
      throw new HttpError(422, [error.message]);
    }
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw notFound();
    throw error;
  }
}
