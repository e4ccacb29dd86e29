// The images zip's manifest: which image and pixel row holds which session (features CSV row), and its labels if any.

export const IMAGE_MANIFEST_NAME = "manifest.csv";

const COMMA = 44;
const NEWLINE = 10;
const ZERO = 48;

/** Zip entry name of the image with 0-based number `index`: zero-padded so names sort in CSV row order. */
export function imageEntryName(index: number): string {
  return `images/image-${String(index + 1).padStart(6, "0")}.png`;
}

/** Header line of the manifest (with its line break), followed by the label columns of a labelled run. */
export function imageManifestHeader(labelColumns: readonly string[] = []): string {
  return ["image", "row", "csv_row", ...labelColumns].join(",").concat("\n");
}

/** Where manifest lines are written: `bytes[0..length)` so far, with room for a line (see imageManifestLine). */
export interface ManifestBytes {
  bytes: Uint8Array;
  length: number;
}

/** The last image name as ASCII bytes: lines come image after image, n lines per name. */
let lastIndex = -1;
let lastName = new Uint8Array(0);

/**
 * Appends the manifest line (with its line break) of the session in data row `csvRow` (1-based, the header not
 * counted): with `flowsPerImage` rows per image it sits in image ⌊(csvRow−1)/n⌋ at pixel row (csvRow−1) mod n
 * (0-based, top to bottom). `labels` is the row's label columns as CSV bytes (UTF-8), absent when unlabelled. Written
 * as bytes, not strings: one line per session adds up. `out` needs room for 64 bytes plus the labels.
 */
export function imageManifestLine(
  out: ManifestBytes,
  csvRow: number,
  flowsPerImage: number,
  labels?: Uint8Array,
): void {
  const position = csvRow - 1;
  const image = Math.floor(position / flowsPerImage);
  if (image !== lastIndex) {
    const name = imageEntryName(image);
    lastName = new Uint8Array(name.length);
    for (let i = 0; i < name.length; i++) lastName[i] = name.charCodeAt(i);
    lastIndex = image;
  }
  const bytes = out.bytes;
  bytes.set(lastName, out.length);
  let at = out.length + lastName.length;
  bytes[at++] = COMMA;
  at = digits(bytes, at, position - image * flowsPerImage);
  bytes[at++] = COMMA;
  at = digits(bytes, at, csvRow);
  if (labels !== undefined) {
    bytes[at++] = COMMA;
    bytes.set(labels, at);
    at += labels.length;
  }
  bytes[at++] = NEWLINE;
  out.length = at;
}

/** Writes a non-negative integer (below 2^31) in decimal at `at`; returns the end. */
function digits(bytes: Uint8Array, at: number, value: number): number {
  let width = 1;
  for (let rest = value; rest >= 10; rest = (rest / 10) | 0) width++;
  const end = at + width;
  let rest = value;
  for (let i = end - 1; i >= at; i--) {
    const q = (rest / 10) | 0;
    bytes[i] = ZERO + rest - q * 10;
    rest = q;
  }
  return end;
}
