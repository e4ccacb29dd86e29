// The images zip, streamed to a temporary file and renamed when complete: PNGs as they are made, then the manifest
// and the features CSV.

import { once } from "node:events";
import fs from "node:fs";
import { ZipFile } from "yazl";

/** A fixed entry time makes the same input give a byte-identical zip. */
const ENTRY_TIME = new Date(Date.UTC(2000, 0, 1));
/** Bytes handed to the zip but not yet written to disk before `addImage` waits: bounds memory on slow disks. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export class ImagesZip {
  private readonly zip = new ZipFile();
  private readonly file: fs.WriteStream;
  private readonly temporaryPath: string;
  private added = 0;
  private written = 0;
  private failure: Error | undefined;
  private waiter: (() => void) | undefined;

  constructor(private readonly path: string) {
    this.temporaryPath = `${path}.partial`;
    this.file = fs.createWriteStream(this.temporaryPath);
    this.file.on("error", (error) => this.fail(error));
    this.zip.on("error", (error: Error) => this.fail(error));
    this.zip.outputStream.on("error", (error: Error) => this.fail(error));
    this.zip.outputStream.on("data", (chunk: Buffer) => {
      this.written += chunk.length;
      if (this.waiter && this.added - this.written <= MAX_PENDING_BYTES / 2) this.wake();
    });
    this.zip.outputStream.pipe(this.file);
  }

  /** Adds an image (already compressed: stored as is). */
  addImage(name: string, png: Buffer): void {
    this.check();
    this.zip.addBuffer(png, name, { mtime: ENTRY_TIME, compress: false });
    this.added += png.length;
  }

  /** Waits while too much is queued for the disk: call between batches of images to bound memory. */
  async waitForDisk(): Promise<void> {
    this.check();
    if (this.added - this.written <= MAX_PENDING_BYTES) return;
    await new Promise<void>((resolve) => {
      this.waiter = resolve;
    });
    this.check();
  }

  /** Adds a file from disk (compressed); it is read when its turn comes. */
  addFile(realPath: string, name: string): void {
    this.check();
    this.zip.addFile(realPath, name, { mtime: ENTRY_TIME, compress: true });
  }

  /** Writes the central directory, waits for the disk and renames the temporary file to the final name. */
  async finish(): Promise<void> {
    this.check();
    const done = once(this.file, "close");
    this.zip.end();
    await done;
    this.check();
    await fs.promises.rename(this.temporaryPath, this.path);
  }

  /** Stops writing and removes the temporary file (after an error or a cancel). */
  async discard(): Promise<void> {
    this.file.destroy();
    await fs.promises.rm(this.temporaryPath, { force: true });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}
