// The images zip, streamed to a temporary file and renamed when complete: PNGs as they are made, then the manifest
// and the features CSV. The zip's output drains to disk whenever the capture reader waits for its next chunk, so
// only the images of about one input chunk are held in memory.

import { once } from "node:events";
import fs from "node:fs";
import { ZipFile } from "yazl";

/** A fixed entry time makes the same input give a byte-identical zip. */
const ENTRY_TIME = new Date(Date.UTC(2000, 0, 1));
/** yazl 3's `Entry.FILE_DATA_DONE`: the entry's data is written; only the central directory still needs it. */
const ENTRY_WRITTEN = 3;
/** Images between two passes that move written entries out of yazl's list. */
const SET_ASIDE_EVERY = 256;

/** The part of yazl's ZipFile the workaround below relies on (yazl 3.x). */
interface YazlInternals {
  entries: { state: number }[];
}

export class ImagesZip {
  private readonly zip = new ZipFile();
  private readonly file: fs.WriteStream;
  private readonly temporaryPath: string;
  private failure: Error | undefined;
  private images = 0;
  private readonly setAside: { state: number }[] = [];

  constructor(private readonly path: string) {
    this.temporaryPath = `${path}.partial`;
    this.file = fs.createWriteStream(this.temporaryPath);
    this.file.on("error", (error) => this.fail(error));
    this.zip.on("error", (error: Error) => this.fail(error));
    this.zip.outputStream.on("error", (error: Error) => this.fail(error));
    this.zip.outputStream.pipe(this.file);
  }

  /** Adds an image (already compressed: stored as is). */
  addImage(name: string, png: Buffer): void {
    this.check();
    this.zip.addBuffer(png, name, { mtime: ENTRY_TIME, compress: false });
    if (++this.images % SET_ASIDE_EVERY === 0) this.setAsideWritten();
  }

  /** Adds a file from disk (compressed); it is read when its turn comes. */
  addFile(realPath: string, name: string): void {
    this.check();
    this.zip.addFile(realPath, name, { mtime: ENTRY_TIME, compressionLevel: 1 });
  }

  /** Writes the central directory, waits for the disk and renames the temporary file to the final name. */
  async finish(): Promise<void> {
    this.check();
    const done = once(this.file, "close");
    // The central directory lists every entry, in order: put the written ones back in front.
    const internals = this.zip as unknown as YazlInternals;
    internals.entries = this.setAside.concat(internals.entries);
    this.setAside.length = 0;
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

  /**
   * yazl finds the next entry to write by scanning its whole entry list from the start, at every step: the cost
   * grows with the square of the number of entries (tens of seconds for 40 000 images, hours for a million).
   * Entries already written are moved aside, and put back before the central directory is written.
   */
  private setAsideWritten(): void {
    const entries = (this.zip as unknown as YazlInternals).entries;
    let written = 0;
    while (written < entries.length && entries[written].state >= ENTRY_WRITTEN) written++;
    for (const entry of entries.splice(0, written)) this.setAside.push(entry);
  }

  private fail(error: Error): void {
    this.failure ??= error;
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}
