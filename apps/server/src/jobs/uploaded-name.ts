// The name a job's input is reached under in its work directory: the name it was uploaded as, when that can be one.
import path from "node:path";

/** At most this many bytes: the longest file name common file systems accept. */
const MAX_NAME_BYTES = 255;

/**
 * The uploaded name usable as a file name (without ".gz" once inflated), or undefined when nothing usable is left:
 * no directories, no control characters (a NUL would make the file system call throw), and cut to 255 UTF-8 bytes
 * on a character boundary, keeping the extension when there is one.
 */
export function uploadedName(name: string | undefined, inflated: boolean): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed
  let base = path.basename((name ?? "").replace(/\\/g, "/")).replace(/[\u0000-\u001f\u007f]/g, "");
  if (inflated) base = base.replace(/\.gz$/i, "");
  if (base === "" || base === "." || base === "..") return undefined;
  if (Buffer.byteLength(base) <= MAX_NAME_BYTES) return base;
  const extension = path.extname(base).slice(0, 16);
  const room = MAX_NAME_BYTES - Buffer.byteLength(extension);
  let stem = "";
  for (const character of base.slice(0, base.length - extension.length)) {
    if (Buffer.byteLength(stem + character) > room) break;
    stem += character;
  }
  return stem + extension;
}
