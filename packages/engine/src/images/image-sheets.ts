// Gives each session its row's place in its n × 280 image when it starts (its row number is known then), encodes
// each image as soon as all its sessions ended, and writes it into the zip, with its manifest lines, once every
// earlier image is written. With `threads`, images are deflated on a worker thread, in the same bytes.
import fs from "node:fs";
import {
  IMAGE_ROW_BYTES,
  type ImageRow,
  imageEntryName,
  imageManifestHeader,
  imageManifestLine,
} from "@tracemill/core";
import { type EncodedPng, GrayscalePngEncoder, scanlineOffset, scanlinesLength } from "./grayscale-png.js";
import { PngWorker } from "./png-worker.js";
import type { ZipWriter } from "./zip-writer.js";

/** Image buffers are carved out of blocks of about this size (thousands of small buffers cost the GC more). */
const BLOCK_BYTES = 1 << 22;
/** PNGs waiting for their turn are copied into blocks of this size. */
const HELD_BLOCK_BYTES = 1 << 20;
/** Scanline bytes handed to the worker and not yet deflated, at most (at least two images): memory stays bounded. */
const MAX_PENDING_BYTES = 1 << 24;

/**
 * An image: while taking rows its scanlines, then (once all its sessions ended) its PNG waiting for its turn in the
 * zip; rows complete so far and, in a labelled run, each row's label bytes.
 */
interface Sheet {
  scanlines: Uint8Array | null;
  png: EncodedPng | null;
  ended: number;
  labels: (Uint8Array | undefined)[];
}

/** Manifest bytes are written out past this much; a line takes at most 64 bytes besides its labels. */
const MANIFEST_FLUSH = 1 << 17;

export class ImageSheets {
  private readonly encoder: GrayscalePngEncoder;
  /** Images not yet in the zip, by image number (an array: looked up twice per session); only from `nextImage` on. */
  private readonly open: (Sheet | undefined)[] = [];
  /**
   * Buffers of encoded images, for the next images. One long session early on holds back the zip for all later
   * images: encoding each image once complete keeps only its PNG (about a seventh of the pixels) until its turn, so
   * buffers are reused and memory holds the images with a session still open, not every image since that session.
   */
  private readonly spare: Uint8Array[] = [];
  private block: Uint8Array = new Uint8Array(0);
  private blockUsed = 0;
  private held = new Uint8Array(0);
  private heldUsed = 0;
  private nextImage = 0;
  private rows = 0;
  private readonly manifest = { bytes: new Uint8Array(MANIFEST_FLUSH * 2), length: 0 };
  private readonly manifestFd: number;
  private manifestOpen = true;
  private readonly worker: PngWorker | null;
  private readonly maxPending: number;
  private readonly take = (image: number, data: Uint8Array) => this.encoded(image, this.encoder.wrap(data));

  /**
   * `manifestPath` is a scratch file the manifest is streamed to (it is added to the zip at the end);
   * `labelColumns` are added to the manifest of a labelled run; `threads` deflates images on a worker thread, with
   * at most `maxPendingBytes` of scanlines (and at least two images) waiting for it.
   */
  constructor(
    private readonly zip: ZipWriter,
    private readonly flowsPerImage: number,
    manifestPath: string,
    labelColumns: readonly string[],
    threads = false,
    maxPendingBytes = MAX_PENDING_BYTES,
  ) {
    this.encoder = new GrayscalePngEncoder(IMAGE_ROW_BYTES, flowsPerImage);
    this.worker = threads ? new PngWorker() : null;
    this.maxPending = Math.max(2, Math.floor(maxPendingBytes / scanlinesLength(IMAGE_ROW_BYTES, flowsPerImage)));
    this.manifestFd = fs.openSync(manifestPath, "w");
    fs.writeSync(this.manifestFd, imageManifestHeader(labelColumns));
  }

  /**
   * Points `row` at the place of CSV data row `seq` (0-based) for its session's packets to fill. Every row number
   * from 0 up is placed exactly once, in order of `seq` (sessions start in row order).
   */
  place(row: ImageRow, seq: number): void {
    const image = Math.floor(seq / this.flowsPerImage);
    let sheet = this.open[image];
    if (!sheet) {
      sheet = { scanlines: this.takeScanlines(), png: null, ended: 0, labels: [] };
      this.open[image] = sheet;
    }
    row.reset(sheet.scanlines!, scanlineOffset(IMAGE_ROW_BYTES, seq - image * this.flowsPerImage));
  }

  /**
   * Row `seq`'s session ended, its row is complete; `labels` are its label columns as CSV bytes (kept, not copied),
   * absent when unlabelled. Rows complete in any order.
   */
  complete(seq: number, labels?: Uint8Array): void {
    const image = Math.floor(seq / this.flowsPerImage);
    const sheet = this.open[image];
    if (!sheet?.scanlines) throw new RangeError(`row ${seq} completed but never placed`);
    if (labels !== undefined) sheet.labels[seq - image * this.flowsPerImage] = labels;
    this.rows++;
    if (++sheet.ended < this.flowsPerImage) return;
    const worker = this.worker;
    if (!worker) {
      this.encoded(image, this.encoder.encode(sheet.scanlines));
      return;
    }
    // The scanlines stay with the sheet, untouched, until the worker's answer for them is taken.
    worker.submit(image, sheet.scanlines);
    if (worker.pending > this.maxPending) worker.drain(this.maxPending, this.take);
    else worker.poll(this.take);
  }

  /** Pads and writes the last image, closes the manifest; returns the counts for the summary. */
  finish(): { images: number; rows: number } {
    // Every image but the last is complete: once the worker answered for all, each is in the zip.
    this.worker?.drain(0, this.take);
    this.worker?.close();
    // The last image's rows after the last session's are still zero: its padding.
    const last = this.open[this.nextImage];
    if (last) {
      if (!last.png) {
        last.png = this.encoder.encode(last.scanlines!);
        last.scanlines = null;
      }
      this.emit(last, last.ended);
    }
    if (this.open.length > this.nextImage) throw new RangeError(`rows missing before image ${this.nextImage}`);
    this.flushManifest();
    fs.closeSync(this.manifestFd);
    this.manifestOpen = false;
    return { images: this.nextImage, rows: this.rows };
  }

  /** Closes the manifest after a failure (the scratch directory holding it is removed by the caller). */
  discard(): void {
    this.worker?.close();
    if (this.manifestOpen) fs.closeSync(this.manifestFd);
    this.manifestOpen = false;
  }

  /** A zeroed buffer for an image's scanlines: an encoded image's, cleared (rows are not copied whole), or new. */
  private takeScanlines(): Uint8Array {
    const reused = this.spare.pop();
    if (reused) return reused.fill(0);
    const bytes = scanlinesLength(IMAGE_ROW_BYTES, this.flowsPerImage);
    if (this.blockUsed + bytes > this.block.length) {
      const size = Math.max(bytes, BLOCK_BYTES - (BLOCK_BYTES % bytes));
      // The worker reads scanlines where they are: shared memory, no copy and no transfer of a whole block.
      this.block = new Uint8Array(this.worker ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
      this.blockUsed = 0;
    }
    this.blockUsed += bytes;
    return this.block.subarray(this.blockUsed - bytes, this.blockUsed);
  }

  /** Image `image` is encoded: its scanlines are free again, and its PNG goes into the zip or waits for its turn. */
  private encoded(image: number, png: EncodedPng): void {
    const sheet = this.open[image]!;
    this.spare.push(sheet.scanlines!);
    sheet.scanlines = null;
    sheet.png = png;
    if (image === this.nextImage) this.emitCompleted();
    else sheet.png = this.hold(png);
  }

  /**
   * The PNG copied into one piece of a shared block: deflate's output sits in a buffer of its chunk size (16 KiB or
   * more), which thousands of waiting PNGs would each keep.
   */
  private hold(png: EncodedPng): EncodedPng {
    let size = 0;
    for (const part of png.parts) size += part.length;
    if (this.heldUsed + size > this.held.length) {
      this.held = new Uint8Array(Math.max(size, HELD_BLOCK_BYTES));
      this.heldUsed = 0;
    }
    const copy = this.held.subarray(this.heldUsed, this.heldUsed + size);
    this.heldUsed += size;
    let at = 0;
    for (const part of png.parts) {
      copy.set(part, at);
      at += part.length;
    }
    return { parts: [copy], crc: png.crc };
  }

  private emitCompleted(): void {
    for (let sheet = this.open[this.nextImage]; sheet?.png; sheet = this.open[this.nextImage]) {
      this.emit(sheet, this.flowsPerImage);
    }
  }

  /** Writes the encoded image `nextImage` with its first `rows` rows' manifest lines. */
  private emit(sheet: Sheet, rows: number): void {
    const png = sheet.png!;
    this.zip.addParts(imageEntryName(this.nextImage), png.parts, png.crc);
    const first = this.nextImage * this.flowsPerImage;
    const manifest = this.manifest;
    for (let y = 0; y < rows; y++) {
      const labels = sheet.labels[y];
      const room = 64 + (labels?.length ?? 0);
      if (manifest.length + room > manifest.bytes.length) {
        this.flushManifest();
        if (room > manifest.bytes.length) manifest.bytes = new Uint8Array(room);
      }
      imageManifestLine(manifest, first + y + 1, this.flowsPerImage, labels);
    }
    if (manifest.length > MANIFEST_FLUSH) this.flushManifest();
    this.open[this.nextImage] = undefined;
    this.nextImage++;
  }

  private flushManifest(): void {
    const manifest = this.manifest;
    for (let at = 0; at < manifest.length; )
      at += fs.writeSync(this.manifestFd, manifest.bytes, at, manifest.length - at);
    manifest.length = 0;
  }
}
