// Reads the lines a running program appends to a file, so EVE alerts are parsed while Suricata is still working.
import fs from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

const readBytes = 4 * 1024 * 1024;

export class LineTail {
  private handle: fs.FileHandle | undefined;
  private offset = 0;
  private rest = "";
  private line = 0;
  private readonly decoder = new StringDecoder("utf8");
  private readonly buffer = Buffer.allocUnsafe(readBytes);

  constructor(
    private readonly file: string,
    private readonly onLine: (line: string, number: number) => void,
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
      const { bytesRead } = await this.handle.read(this.buffer, 0, readBytes, this.offset);
      if (bytesRead === 0) return;
      this.offset += bytesRead;
      const lines = (this.rest + this.decoder.write(this.buffer.subarray(0, bytesRead))).split("\n");
      this.rest = lines.pop() ?? "";
      for (const text of lines) this.onLine(text, ++this.line);
    }
  }

  /** After the writer has finished: the remaining lines, including a last one without a newline. */
  async finish(): Promise<void> {
    try {
      await this.poll();
      const last = this.rest + this.decoder.end();
      this.rest = "";
      if (last !== "") this.onLine(last, ++this.line);
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }
}
