// Reads the files labelling takes beside the capture (alerts, classification.config) in order, as they come (a pipe
// too), every failure a one-line TracemillError naming the file, and for a failed read the byte offset.
import fs from "node:fs";
import { TracemillError } from "@tracemill/core";

export class AlertInput {
  /** Bytes read so far: the offset of the next read. */
  offset = 0;

  private constructor(
    readonly file: string,
    private readonly handle: fs.promises.FileHandle,
  ) {}

  /** Opens `file`; `what` names what it should be ("an alert file") in the message for a directory. */
  static async open(file: string, what: string): Promise<AlertInput> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, "r");
    } catch (error) {
      const dangling = (error as NodeJS.ErrnoException).code === "ENOENT" && isSymbolicLink(file);
      const why = dangling ? "a symbolic link to a file that does not exist" : reason(error);
      throw new TracemillError("NOT_FOUND", `${file}: cannot open the file (${why})`, { file });
    }
    const stat = await handle.stat().catch(() => undefined);
    if (stat?.isDirectory()) {
      await handle.close();
      throw new TracemillError("BAD_INPUT", `${file}: a directory, not ${what}`, { file });
    }
    return new AlertInput(file, handle);
  }

  /** Reads up to `length` bytes into buffer[at…]; 0 at the end of the file. */
  async read(buffer: Uint8Array, at: number, length: number): Promise<number> {
    try {
      const { bytesRead } = await this.handle.read(buffer, at, length, null);
      this.offset += bytesRead;
      return bytesRead;
    } catch (error) {
      throw new TracemillError("NOT_FOUND", `${this.file}: cannot be read at byte ${this.offset} (${reason(error)})`, {
        file: this.file,
        offset: this.offset,
      });
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** "ENOENT: no such file or directory": Node's message without the call and path it appends. */
function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const message = e.message ?? String(error);
  return e.syscall ? message.replace(/, \w+( '.*')?$/, "") : message;
}

function isSymbolicLink(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
}
