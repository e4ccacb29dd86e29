// A picked file's SHA-256, read as a stream so that a capture of gigabytes never sits in memory whole. WebCrypto digests
// one buffer only: a file up to WHOLE_FILE_BYTES is read whole and digested so, about twice as fast. A larger one (or
// any, where the page is no secure context and has no WebCrypto) goes through @noble/hashes' incremental SHA-256, pure
// JS since the app's CSP allows no WebAssembly.
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

/** Progress is reported about this often: a file's stream comes in chunks of some 64 KiB, too many to render each. */
const REPORT_BYTES = 4 * 1024 * 1024;
/** The largest file held whole in memory for WebCrypto's digest. */
export const WHOLE_FILE_BYTES = 256 * 1024 * 1024;

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
export function sha256OfFile(
  file: Blob,
  onProgress?: (fraction: number) => void,
  wholeUpTo = WHOLE_FILE_BYTES,
): Promise<string> {
  let digest = digests.get(file);
  if (!digest) {
    const started: Digest = { result: Promise.resolve(""), read: 0, listeners: new Set() };
    const whole = file.size <= wholeUpTo && typeof crypto !== "undefined" && crypto.subtle !== undefined;
    started.result = (whole ? hashWhole(file, started) : hash(file, started)).catch((error: unknown) => {
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
  return finished(file, digest, bytesToHex(hash.digest()));
}

/**
 * One read of the whole file and one digest: Chromium's arrayBuffer() reads faster than its stream, and WebCrypto
 * hashes the buffer natively, about twice noble's pace. The read and the digest are one step each, so the fraction
 * read goes from 0 to 1 at the end.
 */
async function hashWhole(file: Blob, digest: Digest): Promise<string> {
  const whole = await file.arrayBuffer();
  return finished(
    file,
    digest,
    bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(whole)))),
  );
}

function finished(file: Blob, digest: Digest, hex: string): string {
  digest.read = file.size;
  for (const listener of digest.listeners) listener(1);
  return hex;
}
