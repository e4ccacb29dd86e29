// Digests of input files that a caller already has (the server hashes every upload as it arrives): a capability
// records them in its summary as given, instead of reading the file once more to hash it.
import { TracemillError } from "@tracemill/core/errors";
import type { RunOptions } from "../capability.js";

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The SHA-256 given for `file` (the path exactly as the capability was given it), lower-cased, or undefined when none
 * was given; refused unless it is 64 hex digits.
 */
export function givenHash(run: Pick<RunOptions, "inputHashes">, file: string): string | undefined {
  const hashes = run.inputHashes;
  if (hashes === undefined || !Object.hasOwn(hashes, file)) return undefined;
  const given = hashes[file];
  const digest = typeof given === "string" ? given.toLowerCase() : "";
  if (!SHA256_HEX.test(digest)) {
    throw new TracemillError("BAD_OPTION", `${file}: not a SHA-256 digest in hex: ${String(given)}`, { file });
  }
  return digest;
}
