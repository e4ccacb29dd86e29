// The one error of reading a zip: the zip named as the caller names it (never a server path), then the reason.
import { TracemillError } from "@tracemill/core";

export const zipError = (label: string, reason: string) =>
  new TracemillError("BAD_INPUT", `${label}: ${reason}`, { file: label });
