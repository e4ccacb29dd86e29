// Reads the lines a running program appends to a file, so EVE lines are handled while Suricata is still working.
// Lines come as byte ranges of a reused buffer: EVE files run to hundreds of megabytes, and most of a line is never
// needed as text.
import fs from "node:fs/promises";

const readBytes = 4 * 1024 * 1024;

/** Receives line `number` (1-based) as bytes[start, end), without its newline; the bytes are reused afterwards. */
export type LineHandler = (bytes: Buffer, start: number, end: number, number: number) => void;

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
      const { bytesRead } = await this.handle.read(b, this.kept, b.length - this.kept, this.offset);
      if (bytesRead === 0) return;
      this.offset += bytesRead;
      const filled = this.kept + bytesRead;
      let from = 0;
      for (let nl = b.indexOf(10, this.kept); nl >= 0 && nl < filled; nl = b.indexOf(10, from)) {
        this.onLine(b, from, nl, ++this.line);
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
      if (this.kept > 0) this.onLine(this.buffer, 0, this.kept, ++this.line);
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

/** Calls `onLine` for every line of a whole file, as LineTail delivers them. */
export async function forEachLine(file: string, onLine: LineHandler): Promise<void> {
  await new LineTail(file, onLine).finish();
}
