// An output file filled through a 1 MiB buffer, written under a temporary name and renamed only when complete.
import fs from "node:fs";

const BUFFER_BYTES = 1 << 20;

export class OutputFile {
  private readonly fd: number;
  private readonly temporary: string;
  private readonly buffer = new Uint8Array(BUFFER_BYTES);
  private used = 0;
  private open = true;
  /** Bytes written so far, buffered included. */
  bytes = 0;

  constructor(private readonly path: string) {
    this.temporary = `${path}.partial`;
    this.fd = fs.openSync(this.temporary, "w");
  }

  write(bytes: Uint8Array, start = 0, end = bytes.length): void {
    const length = end - start;
    this.bytes += length;
    if (this.used + length > BUFFER_BYTES) this.flush();
    if (length > BUFFER_BYTES) {
      for (let at = start; at < end; ) at += fs.writeSync(this.fd, bytes, at, end - at);
      return;
    }
    this.buffer.set(bytes.subarray(start, end), this.used);
    this.used += length;
  }

  /** Flushes, closes and gives the file its final name. */
  async commit(): Promise<void> {
    this.flush();
    fs.closeSync(this.fd);
    this.open = false;
    await fs.promises.rename(this.temporary, this.path);
  }

  /** Closes and removes the temporary file. */
  async discard(): Promise<void> {
    if (this.open) fs.closeSync(this.fd);
    this.open = false;
    await fs.promises.rm(this.temporary, { force: true });
  }

  private flush(): void {
    let at = 0;
    while (at < this.used) at += fs.writeSync(this.fd, this.buffer, at, this.used - at);
    this.used = 0;
  }
}
