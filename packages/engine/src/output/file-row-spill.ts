// OrderedRows' spill as a temporary file beside the output: rows that wait for an earlier session's row go there
// once they take more memory than allowed. The file is unlinked as soon as it is created, so no run, however it
// ends, leaves it behind; the space is the system's again when the descriptor closes.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { RowSpill } from "@tracemill/core";
import { outputError } from "./output-file.js";

/** Bytes of waiting rows an output keeps in memory before it spills them (RunOptions.rowMemoryBytes). */
export const ROW_MEMORY_BYTES = 64 << 20;

export class FileRowSpill implements RowSpill {
  private fd = -1;
  private size = 0;
  /** The file's name: `base` and a random suffix, chosen when the file is created. */
  path: string;

  /**
   * The file is created at the first append only (a run whose rows fit in memory writes no file), as `base` plus a
   * random suffix, exclusively: a file left there by a run killed between creating and unlinking its own is neither
   * in the way of the next run nor touched by it.
   */
  constructor(readonly base: string) {
    this.path = base;
  }

  append(bytes: Uint8Array, start: number, end: number): void {
    try {
      if (this.fd < 0) {
        this.path = `${this.base}.${randomBytes(6).toString("hex")}`;
        this.fd = fs.openSync(this.path, "wx+");
        fs.unlinkSync(this.path);
      }
      for (let at = start; at < end; ) {
        const written = fs.writeSync(this.fd, bytes, at, end - at, this.size);
        at += written;
        this.size += written;
      }
    } catch (error) {
      throw outputError(this.path, `could not hold rows waiting to be written in order (at byte ${this.size})`, error);
    }
  }

  read(position: number, into: Uint8Array, length: number): void {
    if (position < 0 || position + length > this.size)
      throw new RangeError(`${this.path}: bytes ${position}–${position + length} were not spilled (${this.size} were)`);
    try {
      for (let at = 0; at < length; ) {
        const read = fs.readSync(this.fd, into, at, length - at, position + at);
        if (read === 0) throw new Error(`ended before byte ${position + at}`);
        at += read;
      }
    } catch (error) {
      throw outputError(this.path, `could not be read back at byte ${position}`, error);
    }
  }

  /** Closes the file (its space is freed). */
  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }
}
