// Stacks session rows, in CSV row order, into n × 280 grayscale PNGs inside the zip, and writes the manifest beside.
import fs from "node:fs";
import { IMAGE_ROW_BYTES, imageEntryName, imageManifestHeader, imageManifestLine } from "@tracemill/core";
import { GrayscaleSheet } from "./grayscale-png.js";
import type { ZipWriter } from "./zip-writer.js";

export class ImageSheets {
  private readonly sheet: GrayscaleSheet;
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
    private readonly zip: ZipWriter,
    private readonly flowsPerImage: number,
    manifestPath: string,
    labelColumns: readonly string[],
  ) {
    this.sheet = new GrayscaleSheet(IMAGE_ROW_BYTES, flowsPerImage);
    this.manifestFd = fs.openSync(manifestPath, "w");
    this.manifest = imageManifestHeader(labelColumns);
  }

  /** Adds the next session's row (exactly 280 bytes) and its label columns as CSV text ("" when unlabelled). */
  add(row: Uint8Array, labels: string): void {
    this.sheet.scanlines.set(row, this.sheet.lineOffset(this.rowsInSheet));
    this.rowsInSheet++;
    this.rows++;
    this.manifest += imageManifestLine(this.rows, this.flowsPerImage, labels);
    if (this.manifest.length > 1 << 16) this.flushManifest();
    if (this.rowsInSheet === this.flowsPerImage) this.emit();
  }

  /** Pads and writes the last image, closes the manifest; returns the counts for the summary. */
  finish(): { images: number; rows: number } {
    if (this.rowsInSheet > 0) {
      this.sheet.clearFrom(this.rowsInSheet);
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
    const png = this.sheet.encode();
    this.zip.addParts(imageEntryName(this.images), png.parts, png.crc);
    this.images++;
    this.rowsInSheet = 0;
  }

  private flushManifest(): void {
    if (this.manifest.length > 0) fs.writeSync(this.manifestFd, this.manifest);
    this.manifest = "";
  }
}
