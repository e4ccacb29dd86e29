// OrderedRows' spill as temporary files beside the output, one per run: rows that wait for an earlier session's row
// go there once they take more memory than allowed. Each file is unlinked as soon as it is created, so no run,
// however it ends, leaves one behind; its space is the system's again when the descriptor closes.
//
// A run is read back once, in the order it was written, while the output takes the rows: so each file holds its run's
// 1 MiB blocks last first, is read from its end and shortened behind each block read. The page-cache memory a block
// held is then free for the output's next writes, and writing into memory freed a moment before costs several times
// less than into memory the run has not used (docs/performance.md); a run's file is closed once read.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { RowSpill } from "@tracemill/core";
import { outputError } from "./output-file.js";

/** Bytes of waiting rows an output keeps in memory before it spills them (RunOptions.rowMemoryBytes). */
export const ROW_MEMORY_BYTES = 64 << 20;

/** A run's bytes are in blocks of this size, the first block at the file's end. */
const BLOCK_BYTES = 1 << 20;

interface RunFile {
  fd: number;
  /** The run's size, bytes appended and bytes read. */
  size: number;
  written: number;
  read: number;
  /** Blocks read to their end and cut off the file. */
  freed: number;
}

export class FileRowSpill implements RowSpill {
  private readonly runs: (RunFile | null)[] = [];
  /** The last run file's name: `base` and a random suffix, chosen when the file is created. */
  path: string;

  /**
   * Files are created as runs start (a run whose rows fit in memory writes none), each as `base` plus a random suffix,
   * exclusively: a file left there by a run killed between creating and unlinking its own is neither in the way of
   * the next run nor touched by it.
   */
  constructor(readonly base: string) {
    this.path = base;
  }

  start(run: number, bytes: number): void {
    if (run !== this.runs.length) throw new RangeError(`run ${run} started after ${this.runs.length} runs`);
    try {
      this.path = `${this.base}.${randomBytes(6).toString("hex")}`;
      const fd = fs.openSync(this.path, "wx+");
      fs.unlinkSync(this.path);
      this.runs.push({ fd, size: bytes, written: 0, read: 0, freed: 0 });
    } catch (error) {
      throw outputError(this.path, "could not hold rows waiting to be written in order", error);
    }
  }

  append(run: number, bytes: Uint8Array, start: number, end: number): void {
    const file = this.runs[run]!;
    if (file.written + end - start > file.size)
      throw new RangeError(`run ${run} holds ${file.size} bytes, not ${file.written + end - start}`);
    try {
      this.pieces(file, file.written, end - start, (position, offset, length) => {
        for (let at = 0; at < length; )
          at += fs.writeSync(file.fd, bytes, start + offset + at, length - at, position + at);
      });
      file.written += end - start;
    } catch (error) {
      throw outputError(this.path, `could not hold rows waiting to be written in order (run ${run})`, error);
    }
  }

  read(run: number, into: Uint8Array, at: number, length: number): void {
    const file = this.runs[run];
    if (file === null || file === undefined || length < 0 || file.read + length > file.written)
      throw new RangeError(`${this.path}: ${length} bytes of run ${run} were not spilled`);
    try {
      this.pieces(file, file.read, length, (position, offset, count) => {
        for (let done = 0; done < count; ) {
          const read = fs.readSync(file.fd, into, at + offset + done, count - done, position + done);
          if (read === 0) throw new Error(`ended before byte ${position + done}`);
          done += read;
        }
      });
      file.read += length;
      if (file.read === file.size) {
        fs.closeSync(file.fd);
        this.runs[run] = null;
      } else {
        // The blocks read to their end go: they are the file's last ones.
        const read = Math.floor(file.read / BLOCK_BYTES);
        if (read > file.freed) {
          fs.ftruncateSync(file.fd, blockStart(file.size, read - 1));
          file.freed = read;
        }
      }
    } catch (error) {
      throw outputError(this.path, `could not be read back (run ${run})`, error);
    }
  }

  /** Closes the files of runs not read to their end (their space is freed). */
  close(): void {
    for (const file of this.runs) if (file !== null) fs.closeSync(file.fd);
    this.runs.fill(null);
  }

  /** Calls `each(filePosition, offset, length)` for the pieces of the run's bytes [from, from + length) by block. */
  private pieces(
    file: RunFile,
    from: number,
    length: number,
    each: (position: number, offset: number, length: number) => void,
  ) {
    for (let offset = 0; offset < length; ) {
      const at = from + offset;
      const block = Math.floor(at / BLOCK_BYTES);
      const count = Math.min(length - offset, (block + 1) * BLOCK_BYTES - at);
      each(blockStart(file.size, block) + at - block * BLOCK_BYTES, offset, count);
      offset += count;
    }
  }
}

/** Where block `block` of a run of `size` bytes starts in its file: the blocks last first, the last one short. */
function blockStart(size: number, block: number): number {
  return Math.max(0, size - (block + 1) * BLOCK_BYTES);
}
