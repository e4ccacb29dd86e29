// Keeps each session's final row (the block ImageRows filled, about its size) by row number, draws and encodes each
// n × 280 image as soon as all its rows are final (full, or their session ended), and writes it into the zip, with its
// manifest lines, once every earlier image is written; all on the pass's own thread. In a labelled run the manifest
// lines wait for their sessions' labels, apart from the images.
import fs from "node:fs";
import zlib from "node:zlib";
import {
  IMAGE_MANIFEST_NAME,
  IMAGE_ROW_BYTES,
  type ImageRows,
  imageEntryName,
  imageManifestHeader,
  imageManifestLine,
  TracemillError,
} from "@tracemill/core";
import type { ZipWriter } from "../output/index.js";
import { GrayscalePngEncoder, scanlineOffset, scanlinesLength } from "./grayscale-png.js";

/** PNGs waiting for their turn are copied into blocks of this size. */
const HELD_BLOCK_BYTES = 1 << 20;

/** An image: rows final so far, then (once every row is final) its PNG waiting for its turn in the zip. */
interface Sheet {
  /** The whole PNG file, once encoded and waiting for an earlier image, with its CRC-32. */
  png: Uint8Array | null;
  crc: number;
  final: number;
}

/** A labelled run's image: its rows' label bytes, and how many of its sessions ended. */
interface LabelSheet {
  ended: number;
  labels: (Uint8Array | undefined)[];
}

/** Manifest bytes are written out past this much; a line takes at most 64 bytes besides its labels. */
const MANIFEST_FLUSH = 1 << 17;

export class ImageSheets {
  private readonly encoder: GrayscalePngEncoder;
  /** Images not yet in the zip, by image number (an array: looked up twice per session); only from `nextImage` on. */
  private readonly open: (Sheet | undefined)[] = [];
  /** A labelled run's images whose manifest lines are not written yet; only from `nextLines` on. */
  private readonly labelled: (LabelSheet | undefined)[] = [];
  /**
   * The final rows not drawn yet, by row number (seq & mask): their blocks (-1: no byte) and lengths. The rows from
   * the first image not yet written on: one session whose row is still short holds back the zip for all later images,
   * so each image is drawn and encoded once all its rows are final and only its PNG (about a seventh of the pixels)
   * waits; the rows of an image still open wait in blocks about their size.
   */
  private handles = new Int32Array(1024);
  private lengths = new Int32Array(1024);
  private mask = 1023;
  /** The ImageRows given to place(), whose blocks the final rows are in. */
  private placedRows: ImageRows | undefined;
  /** The one buffer images are drawn in: n scanlines, their filter bytes 0. */
  private readonly scanlines: Uint8Array;
  private held = new Uint8Array(0);
  private heldUsed = 0;
  /** A waiting PNG as the one part of its zip entry. */
  private readonly whole: Uint8Array[] = [new Uint8Array(0)];
  private nextImage = 0;
  /** The first image whose manifest lines are not written yet (labelled runs; otherwise lines go with the image). */
  private nextLines = 0;
  private rows = 0;
  private readonly withLabels: boolean;
  private readonly manifest = { bytes: new Uint8Array(MANIFEST_FLUSH * 2), length: 0 };
  private readonly manifestFd: number;
  private readonly manifestPath: string;
  private manifestOpen = true;
  /** The manifest file's CRC-32 and length so far (complete once `finish` returns), for its zip entry. */
  manifestCrc = 0;
  manifestSize = 0;

  /**
   * `manifestPath` is a scratch file the manifest is streamed to (it is added to the zip at the end);
   * `labelColumns` are added to the manifest of a labelled run (every session then gives its labels to `labels`).
   */
  constructor(
    private readonly zip: ZipWriter,
    private readonly flowsPerImage: number,
    manifestPath: string,
    labelColumns: readonly string[],
  ) {
    this.encoder = new GrayscalePngEncoder(IMAGE_ROW_BYTES, flowsPerImage);
    this.scanlines = new Uint8Array(scanlinesLength(IMAGE_ROW_BYTES, flowsPerImage));
    this.withLabels = labelColumns.length > 0;
    this.manifestPath = manifestPath;
    this.manifestFd = this.manifestCall("created", () => fs.openSync(manifestPath, "w"));
    const header = new TextEncoder().encode(imageManifestHeader(labelColumns));
    this.writeManifest(header, header.length);
  }

  /**
   * Starts slot `slot`'s row in `rows` for CSV data row `seq` (0-based), for its session's packets to fill. Every row
   * number from 0 up is placed exactly once, in order of `seq` (sessions start in row order).
   */
  place(rows: ImageRows, slot: number, seq: number): void {
    this.placedRows = rows;
    const image = Math.floor(seq / this.flowsPerImage);
    if (!this.open[image]) {
      this.open[image] = { png: null, crc: 0, final: 0 };
      if (this.withLabels) this.labelled[image] = { ended: 0, labels: [] };
    }
    if (seq - this.nextImage * this.flowsPerImage >= this.handles.length) this.growRows();
    this.handles[seq & this.mask] = -1;
    this.lengths[seq & this.mask] = 0;
    rows.start(slot);
    this.rows++;
  }

  /**
   * Row `seq`, slot `slot`'s in the ImageRows given to place(), takes no more bytes (it is full, or its session
   * ended): its block is this object's now. Called once per row; rows become final in any order.
   */
  final(seq: number, slot: number): void {
    const image = Math.floor(seq / this.flowsPerImage);
    const sheet = this.open[image];
    const rows = this.placedRows;
    if (!sheet || !rows || seq >= this.rows) throw new RangeError(`row ${seq} final but never placed`);
    this.handles[seq & this.mask] = rows.handleOf(slot);
    this.lengths[seq & this.mask] = rows.lengthOf(slot);
    if (++sheet.final < this.flowsPerImage) return;
    // The PNG is the encoder's until its next call: written now if its turn came, else copied to wait for it.
    const png = this.encoder.encode(this.draw(image, this.flowsPerImage));
    if (image !== this.nextImage) {
      sheet.png = this.hold(png.parts);
      sheet.crc = png.crc;
      return;
    }
    this.emit(png.parts, png.crc, this.flowsPerImage);
    for (let next = this.open[this.nextImage]; next?.png; next = this.open[this.nextImage]) {
      this.whole[0] = next.png;
      this.emit(this.whole, next.crc, this.flowsPerImage);
    }
  }

  /** A labelled run: row `seq`'s session ended with `labels`, its label columns as CSV bytes (kept, not copied). */
  labels(seq: number, labels: Uint8Array): void {
    const image = Math.floor(seq / this.flowsPerImage);
    const sheet = this.labelled[image];
    if (!sheet) throw new RangeError(`row ${seq} labelled but never placed`);
    sheet.labels[seq - image * this.flowsPerImage] = labels;
    if (++sheet.ended === this.flowsPerImage && image === this.nextLines) this.writeLabelledLines();
  }

  /** Pads and writes the last image, closes the manifest; returns the counts for the summary. */
  finish(): { images: number; rows: number } {
    // Every image but the last is final, so each is in the zip already. The last image's rows after the last
    // session's are zero: its padding.
    const lastRows = this.rows - this.nextImage * this.flowsPerImage;
    if (this.open[this.nextImage]) {
      const png = this.encoder.encode(this.draw(this.nextImage, lastRows));
      this.emit(png.parts, png.crc, lastRows);
    }
    if (this.open.length > this.nextImage) throw new RangeError(`rows missing before image ${this.nextImage}`);
    if (this.withLabels) {
      const sheet = this.labelled[this.nextLines];
      if (sheet) this.lines(this.nextLines, this.rows - this.nextLines * this.flowsPerImage, sheet.labels);
      if (this.labelled.length > this.nextLines) throw new RangeError(`labels missing in image ${this.nextLines}`);
    }
    this.flushManifest();
    fs.closeSync(this.manifestFd);
    this.manifestOpen = false;
    return { images: this.nextImage, rows: this.rows };
  }

  /** Closes the manifest after a failure (the scratch directory holding it is removed by the caller). */
  discard(): void {
    if (this.manifestOpen) fs.closeSync(this.manifestFd);
    this.manifestOpen = false;
  }

  /**
   * Image `image` in the drawing buffer: its first `count` rows from their blocks (which are freed), each zero past
   * its length, and zero rows after them (the last image's padding).
   */
  private draw(image: number, count: number): Uint8Array {
    const scanlines = this.scanlines;
    const blocks = this.placedRows?.blocks;
    const first = image * this.flowsPerImage;
    for (let y = 0; y < count; y++) {
      const at = scanlineOffset(IMAGE_ROW_BYTES, y);
      const handle = this.handles[(first + y) & this.mask];
      const length = handle < 0 ? 0 : this.lengths[(first + y) & this.mask];
      if (handle >= 0 && blocks) {
        const from = blocks.offsetOf(handle);
        scanlines.set(blocks.chunkOf(handle).subarray(from, from + length), at);
        blocks.free(handle);
      }
      scanlines.fill(0, at + length, at + IMAGE_ROW_BYTES);
    }
    // Filter bytes stay 0: only the rows' own bytes are ever written.
    if (count < this.flowsPerImage) scanlines.fill(0, scanlineOffset(IMAGE_ROW_BYTES, count) - 1);
    return scanlines;
  }

  /** Makes room for twice as many waiting rows, keeping each at seq & mask. */
  private growRows(): void {
    const size = this.handles.length * 2;
    const handles = new Int32Array(size);
    const lengths = new Int32Array(size);
    for (let seq = this.nextImage * this.flowsPerImage; seq < this.rows; seq++) {
      handles[seq & (size - 1)] = this.handles[seq & this.mask];
      lengths[seq & (size - 1)] = this.lengths[seq & this.mask];
    }
    this.handles = handles;
    this.lengths = lengths;
    this.mask = size - 1;
  }

  /**
   * The PNG's parts copied into one piece of a block that many waiting PNGs share: the encoder's result is reused by
   * its next call, and thousands of waiting PNGs each in a buffer of their own would cost the GC more.
   */
  private hold(parts: readonly Uint8Array[]): Uint8Array {
    let size = 0;
    for (const part of parts) size += part.length;
    if (this.heldUsed + size > this.held.length) {
      this.held = new Uint8Array(Math.max(size, HELD_BLOCK_BYTES));
      this.heldUsed = 0;
    }
    const copy = this.held.subarray(this.heldUsed, this.heldUsed + size);
    this.heldUsed += size;
    let at = 0;
    for (const part of parts) {
      copy.set(part, at);
      at += part.length;
    }
    return copy;
  }

  /** Writes image `nextImage` (its PNG in `parts`), with its first `rows` rows' manifest lines in an unlabelled run. */
  private emit(parts: readonly Uint8Array[], crc: number, rows: number): void {
    this.zip.addParts(imageEntryName(this.nextImage), parts, crc);
    if (!this.withLabels) this.lines(this.nextImage, rows, undefined);
    this.open[this.nextImage] = undefined;
    this.nextImage++;
  }

  /** Writes the manifest lines of every labelled image from `nextLines` on whose sessions all ended. */
  private writeLabelledLines(): void {
    for (let sheet = this.labelled[this.nextLines]; sheet?.ended === this.flowsPerImage; ) {
      this.lines(this.nextLines, this.flowsPerImage, sheet.labels);
      sheet = this.labelled[this.nextLines];
    }
  }

  /** Writes the manifest lines of the first `rows` rows of image `image`, with their labels when labelled. */
  private lines(image: number, rows: number, labels: (Uint8Array | undefined)[] | undefined): void {
    const first = image * this.flowsPerImage;
    const manifest = this.manifest;
    for (let y = 0; y < rows; y++) {
      const rowLabels = labels?.[y];
      const room = 64 + (rowLabels?.length ?? 0);
      if (manifest.length + room > manifest.bytes.length) {
        this.flushManifest();
        if (room > manifest.bytes.length) manifest.bytes = new Uint8Array(room);
      }
      imageManifestLine(manifest, first + y + 1, this.flowsPerImage, rowLabels);
    }
    if (manifest.length > MANIFEST_FLUSH) this.flushManifest();
    if (labels !== undefined) {
      this.labelled[image] = undefined;
      this.nextLines = image + 1;
    }
  }

  private flushManifest(): void {
    this.writeManifest(this.manifest.bytes, this.manifest.length);
    this.manifest.length = 0;
  }

  private writeManifest(bytes: Uint8Array, length: number): void {
    const fd = this.manifestFd;
    for (let at = 0; at < length; ) at += this.manifestCall("written", () => fs.writeSync(fd, bytes, at, length - at));
    this.manifestCrc = zlib.crc32(bytes.subarray(0, length), this.manifestCrc);
    this.manifestSize += length;
  }

  /** A file system call on the manifest's scratch file: a failure (a full disk) is OUTPUT_FAILED with its reason. */
  private manifestCall<T>(what: string, call: () => T): T {
    try {
      return call();
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/, \w+ '.*'$/, "") : String(error);
      throw new TracemillError("OUTPUT_FAILED", `${IMAGE_MANIFEST_NAME}: could not be ${what} (${reason})`, {
        file: this.manifestPath,
        cause: error,
      });
    }
  }
}
