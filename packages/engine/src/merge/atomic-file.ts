// A file written under a temporary name and renamed into place only when complete; removed on failure.
import fs from "node:fs";

export class AtomicFile {
  private readonly fd: number;
  private readonly temporary: string;
  private open = true;
  bytes = 0;

  constructor(readonly file: string) {
    this.temporary = `${file}.partial`;
    this.fd = fs.openSync(this.temporary, "w");
  }

  /** Appends a chunk (synchronously: the writers hand over large chunks, so calls are few). */
  readonly write = (chunk: Uint8Array): void => {
    let done = 0;
    while (done < chunk.length) done += fs.writeSync(this.fd, chunk, done, chunk.length - done);
    this.bytes += chunk.length;
  };

  commit(): void {
    fs.closeSync(this.fd);
    this.open = false;
    fs.renameSync(this.temporary, this.file);
  }

  abort(): void {
    if (this.open) fs.closeSync(this.fd);
    this.open = false;
    fs.rmSync(this.temporary, { force: true });
  }
}
