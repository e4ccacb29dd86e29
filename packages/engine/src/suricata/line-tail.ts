// Reads the lines a running program appends to a file, so EVE lines are handled while Suricata is still working.
// Lines come as byte ranges of a reused buffer: EVE files run to hundreds of megabytes, and most of a line is never
// needed as text.
import { readSync } from "node:fs";
import fs from "node:fs/promises";

/** Grown when a line is longer; 1 MiB is many lines, and each megabyte touched first costs page faults. */
const readBytes = 1024 * 1024;

/**
 * Receives line `number` (1-based) as bytes[start, end), without its newline, and the line's offset in the file;
 * the bytes are reused afterwards.
 */
export type LineHandler = (bytes: Buffer, start: number, end: number, number: number, offset: number) => void;

export class LineTail {
  private handle: fs.FileHandle | undefined;
  private offset = 0;
  private line = 0;
  private buffer = Buffer.allocUnsafe(readBytes);
  /** Bytes of an unfinished last line, kept at the start of the buffer. */
  private kept = 0;

  constructor(
    private readonly file: string,
    private readonly onLine: LineHandler,
  ) {}

  /** Reads every complete line appended since the last call (nothing while the file does not exist yet). */
  async poll(): Promise<void> {
    if (!this.handle) {
      try {
        this.handle = await fs.open(this.file, "r");
      } catch {
        return;
      }
    }
    for (;;) {
      if (this.kept === this.buffer.length) {
        const grown = Buffer.allocUnsafe(this.buffer.length * 2);
        this.buffer.copy(grown, 0, 0, this.kept);
        this.buffer = grown;
      }
      const b = this.buffer;
      // Read in place rather than on the thread pool: the bytes were just written and sit in the page cache, and
      // a hop to a pool thread and back costs two thread switches per read on a busy machine.
      const bytesRead = readSync(this.handle.fd, b, this.kept, b.length - this.kept, this.offset);
      if (bytesRead === 0) return;
      this.offset += bytesRead;
      const filled = this.kept + bytesRead;
      const base = this.offset - filled;
      let from = 0;
      for (let nl = b.indexOf(10, this.kept); nl >= 0 && nl < filled; nl = b.indexOf(10, from)) {
        this.onLine(b, from, nl, ++this.line, base + from);
        from = nl + 1;
      }
      b.copyWithin(0, from, filled);
      this.kept = filled - from;
    }
  }

  /** After the writer has finished: the remaining lines, including a last one without a newline. */
  async finish(): Promise<void> {
    try {
      await this.poll();
      if (this.kept > 0) this.onLine(this.buffer, 0, this.kept, ++this.line, this.offset - this.kept);
      this.kept = 0;
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }
}

/** Calls `onLine` with the line that starts at each of `offsets` (ascending) in `file`. */
export async function readLinesAt(file: string, offsets: number[], onLine: LineHandler): Promise<void> {
  const handle = await fs.open(file, "r");
  try {
    let buffer = Buffer.allocUnsafe(64 * 1024);
    for (const offset of offsets) {
      for (let length = 0; ; ) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, offset + length);
        length += bytesRead;
        const nl = buffer.subarray(0, length).indexOf(10);
        if (nl >= 0 || bytesRead === 0) {
          onLine(buffer, 0, nl >= 0 ? nl : length, 0, offset);
          break;
        }
        const grown = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
    }
  } finally {
    await handle.close();
  }
}
