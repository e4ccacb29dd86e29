// Stacks session rows, in CSV row order, into n × 280 grayscale PNGs inside the zip, and writes the manifest beside.
import fs from "node:fs";
import { IMAGE_ROW_BYTES, imageEntryName, imageManifestHeader, imageManifestLine } from "@tracemill/core";
import { encodeGrayscalePng } from "./grayscale-png.js";
import type { ImagesZip } from "./images-zip.js";

export class ImageSheets {
  private readonly pixels: Uint8Array;
  private rowsInSheet = 0;
  private rows = 0;
  private images = 0;
  private manifest = "";
  private readonly manifestFd: number;
  private open = true;

  /**
   * `manifestPath` is a scratch file the manifest is streamed to (it is added to the zip at the end);
   * `labelColumns` are added to the manifest of a labelled run.
   */
  constructor(
    private readonly zip: ImagesZip,
    private readonly flowsPerImage: number,
    manifestPath: string,
    labelColumns: readonly string[],
  ) {
    this.pixels = new Uint8Array(flowsPerImage * IMAGE_ROW_BYTES);
    this.manifestFd = fs.openSync(manifestPath, "w");
    this.manifest = imageManifestHeader(labelColumns);
  }

  /** Adds the next session's row (280 bytes) and its label columns as CSV text ("" when unlabelled). */
  add(row: Uint8Array, labels: string): void {
    this.pixels.set(row.subarray(0, IMAGE_ROW_BYTES), this.rowsInSheet * IMAGE_ROW_BYTES);
    this.rowsInSheet++;
    this.rows++;
    this.manifest += imageManifestLine(this.rows, this.flowsPerImage, labels);
    if (this.manifest.length > 1 << 16) this.flushManifest();
    if (this.rowsInSheet === this.flowsPerImage) this.emit();
  }

  /** Pads and writes the last image, closes the manifest; returns the counts for the summary. */
  finish(): { images: number; rows: number } {
    if (this.rowsInSheet > 0) {
      this.pixels.fill(0, this.rowsInSheet * IMAGE_ROW_BYTES);
      this.emit();
    }
    this.flushManifest();
    fs.closeSync(this.manifestFd);
    this.open = false;
    return { images: this.images, rows: this.rows };
  }

  /** Closes the manifest after a failure (the scratch directory holding it is removed by the caller). */
  discard(): void {
    if (this.open) fs.closeSync(this.manifestFd);
    this.open = false;
  }

  private emit(): void {
    this.zip.addImage(
      imageEntryName(this.images),
      encodeGrayscalePng(this.pixels, IMAGE_ROW_BYTES, this.flowsPerImage),
    );
    this.images++;
    this.rowsInSheet = 0;
  }

  private flushManifest(): void {
    if (this.manifest.length > 0) fs.writeSync(this.manifestFd, this.manifest);
    this.manifest = "";
  }
}
