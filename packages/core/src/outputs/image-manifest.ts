// The images zip's manifest: which image and pixel row holds which session (features CSV row), and its labels if any.

export const IMAGE_MANIFEST_NAME = "manifest.csv";

/** The last name made: manifest lines come image after image, n lines per name. */
let lastIndex = -1;
let lastName = "";

/** Zip entry name of the image with 0-based number `index`: zero-padded so names sort in CSV row order. */
export function imageEntryName(index: number): string {
  if (index !== lastIndex) {
    lastName = `images/image-${String(index + 1).padStart(6, "0")}.png`;
    lastIndex = index;
  }
  return lastName;
}

/** Header line of the manifest (with its line break), followed by the label columns of a labelled run. */
export function imageManifestHeader(labelColumns: readonly string[] = []): string {
  return ["image", "row", "csv_row", ...labelColumns].join(",").concat("\n");
}

/**
 * One manifest line for the session in data row `csvRow` (1-based, the header not counted): with `flowsPerImage`
 * rows per image it sits in image ⌊(csvRow−1)/n⌋ at pixel row (csvRow−1) mod n (0-based, top to bottom).
 * `labels` is the row's label columns as CSV text, or "" when unlabelled.
 */
export function imageManifestLine(csvRow: number, flowsPerImage: number, labels = ""): string {
  const position = csvRow - 1;
  const image = imageEntryName(Math.floor(position / flowsPerImage));
  const row = position % flowsPerImage;
  return labels === "" ? `${image},${row},${csvRow}\n` : `${image},${row},${csvRow},${labels}\n`;
}
