// A picked file's SHA-256, read as a stream so that a capture of gigabytes never sits in memory whole. WebCrypto digests
// one buffer only, hence @noble/hashes' incremental SHA-256 (pure JS: the app's CSP allows no WebAssembly).
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

/** Progress is reported about this often: a file's stream comes in chunks of some 64 KiB, too many to render each. */
const REPORT_BYTES = 4 * 1024 * 1024;

interface Digest {
  result: Promise<string>;
  read: number;
  listeners: Set<(fraction: number) => void>;
}

/** Each file's digest, once: the picker starts it, the submit awaits the same one. */
const digests = new WeakMap<Blob, Digest>();

/**
 * The file's SHA-256 as lower-case hex, reporting the fraction read so far. Asked again for the same file, it answers
 * the digest already under way or done (a file that could not be read is read again).
 */
export function sha256OfFile(file: Blob, onProgress?: (fraction: number) => void): Promise<string> {
  let digest = digests.get(file);
  if (!digest) {
    const started: Digest = { result: Promise.resolve(""), read: 0, listeners: new Set() };
    started.result = hash(file, started).catch((error: unknown) => {
      digests.delete(file);
      throw error;
    });
    digests.set(file, started);
    digest = started;
  }
  if (onProgress) {
    const listeners = digest.listeners;
    onProgress(file.size === 0 ? 0 : digest.read / file.size);
    listeners.add(onProgress);
    void digest.result.finally(() => listeners.delete(onProgress)).catch(() => {});
  }
  return digest.result;
}

async function hash(file: Blob, digest: Digest): Promise<string> {
  const hash = sha256.create();
  // A stream, not FileReader over slices: Chromium reads a file's stream about three times as fast. Each chunk hashes
  // in a millisecond or two, so a digest begun at the pick runs beside the user's typing without holding it up.
  const reader = file.stream().getReader();
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
    digest.read += value.length;
    if (digest.read - reported >= REPORT_BYTES) {
      reported = digest.read;
      for (const listener of digest.listeners) listener(digest.read / file.size);
    }
  }
  for (const listener of digest.listeners) listener(1);
  return bytesToHex(hash.digest());
}
