// The dataset's rows, as typed cells, held in a temporary file until every session is labelled and the splits are
// known; then read back in order, once per use. The file is unlinked as soon as it is created, so no build, however it
// ends, leaves it behind.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { outputError } from "../../output/index.js";

const BUFFER_BYTES = 8 << 20;

export class RowStore {
  private fd = -1;
  private size = 0;
  private readonly buffer = new Uint8Array(BUFFER_BYTES);
  private buffered = 0;
  /** Each row's length in bytes, by row number (rows come in that order). */
  private lengths = new Uint32Array(1 << 16);
  private rowCount = 0;
  private readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, `.rows.${randomBytes(6).toString("hex")}`);
  }

  get rows(): number {
    return this.rowCount;
  }

  /** Row `row`'s length, known when the session ended (its row arrives in order later). */
  setLength(row: number, bytes: number): void {
    if (row >= this.lengths.length) {
      const grown = new Uint32Array(Math.max(row + 1, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[row] = bytes;
    if (row >= this.rowCount) this.rowCount = row + 1;
  }

  /** The rows' sink: whole rows in row order. */
  readonly write = (bytes: Uint8Array, start: number, end: number): void => {
    if (this.fd < 0) this.open();
    if (this.buffered + (end - start) > this.buffer.length) this.flush();
    if (end - start > this.buffer.length) {
      this.writeAt(bytes, start, end);
      return;
    }
    this.buffer.set(bytes.subarray(start, end), this.buffered);
    this.buffered += end - start;
  };

  /**
   * Reads every row back in order: `each(bytes, start, end, row)` with a word-aligned `start` (the bytes are valid
   * during the call only). Before each chunk it reads it awaits `between` (by default one turn of the event loop),
   * so that writers fed by `each` (Parquet's, a stream) encode as the rows come rather than hold them all.
   */
  async forEach(
    each: (bytes: Uint8Array, start: number, end: number, row: number) => void,
    between: () => Promise<void> = () => new Promise<void>((resolve) => setImmediate(resolve)),
  ): Promise<void> {
    this.flush();
    let chunk = new Uint8Array(BUFFER_BYTES);
    let held = 0;
    let at = 0;
    let position = 0;
    for (let row = 0; row < this.rowCount; row++) {
      const length = this.lengths[row];
      if (at + length > held) {
        // Keep the unread tail, then fill up behind it.
        chunk.copyWithin(0, at, held);
        held -= at;
        at = 0;
        if (length > chunk.length) {
          const grown = new Uint8Array(length * 2);
          grown.set(chunk.subarray(0, held));
          chunk = grown;
        }
        await between();
        while (held < length) {
          const read = this.readAt(chunk, held, position);
          if (read === 0)
            throw outputError(this.file, `ended at byte ${position}, before row ${row}`, new Error("short"));
          held += read;
          position += read;
        }
      }
      each(chunk, at, at + length, row);
      at += length;
    }
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }

  private open(): void {
    try {
      this.fd = fs.openSync(this.file, "wx+");
      fs.unlinkSync(this.file);
    } catch (error) {
      throw outputError(this.file, "could not hold the dataset's rows", error);
    }
  }

  private flush(): void {
    if (this.buffered === 0) return;
    this.writeAt(this.buffer, 0, this.buffered);
    this.buffered = 0;
  }

  private writeAt(bytes: Uint8Array, start: number, end: number): void {
    try {
      for (let at = start; at < end; ) {
        const written = fs.writeSync(this.fd, bytes, at, end - at, this.size);
        at += written;
        this.size += written;
      }
    } catch (error) {
      throw outputError(this.file, `could not hold the dataset's rows (at byte ${this.size})`, error);
    }
  }

  private readAt(into: Uint8Array, at: number, position: number): number {
    if (position >= this.size) return 0;
    try {
      return fs.readSync(this.fd, into, at, Math.min(into.length - at, this.size - position), position);
    } catch (error) {
      throw outputError(this.file, `could not be read back at byte ${position}`, error);
    }
  }
}
