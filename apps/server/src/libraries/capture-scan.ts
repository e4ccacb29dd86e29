// What a library's capture holds and its SHA-256, from one read of the file: the engine's info pass (what `tracemill
// info` prints) with the bytes it reads handed to the hash as they go. A gzip file, or one whose reading stopped at
// damage, is hashed by a second read, since the pass then did not see every stored byte.
import crypto from "node:crypto";
import fs from "node:fs";
import type { LibraryCaptureInfo } from "@tracemill/contracts";
import { summarizeCapture } from "@tracemill/engine/info";
import type { ChunkTap } from "@tracemill/engine/input";
import { sha256OfFile } from "../storage/file-digest.js";

export interface CaptureScan {
  info: LibraryCaptureInfo;
  /** Null when it was not asked for (the cache has it already). */
  sha256: string | null;
}

/** A tap that hashes the bytes read, and knows whether they were every byte of the file, in order. */
function hashingTap() {
  const hash = crypto.createHash("sha256");
  let next = 0;
  let inOrder = true;
  const tap: ChunkTap = {
    buffer: () => null,
    take(position, bytes) {
      if (position !== next) inOrder = false;
      hash.update(bytes);
      next = position + bytes.length;
    },
    end() {},
  };
  return { tap, digestOf: (size: number) => (inOrder && next === size ? hash.digest("hex") : null) };
}

export async function scanCapture(file: string, options: { hash: boolean }): Promise<CaptureScan> {
  const { size } = await fs.promises.stat(file);
  const hashing = options.hash ? hashingTap() : null;
  const summary = await summarizeCapture(file, hashing ? { tap: hashing.tap } : {});
  const sha256 = hashing ? (hashing.digestOf(size) ?? (await sha256OfFile(file))) : null;
  return {
    sha256,
    info: {
      packets: summary.packets,
      first: summary.first,
      last: summary.last,
      duration: summary.duration,
      linkTypes: summary.linkTypes,
      complete: summary.complete,
      ...(summary.damage && { damage: `at byte ${summary.damage.offset}: ${summary.damage.message}` }),
    },
  };
}
