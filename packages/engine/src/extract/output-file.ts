// An output file filled through 1 MiB buffers, written under a temporary name and renamed only when complete.
// Full buffers are written on libuv's thread pool, each at its own file offset, so the caller's thread goes on
// formatting while the kernel copies (about a tenth of the extract pass's time on bench-large).
import fs from "node:fs";
import { TracemillError } from "@tracemill/core";

const BUFFER_BYTES = 1 << 20;
/** Bytes queued beyond which a buffer is written at once on the caller's thread, so that memory stays bounded. */
const MAX_QUEUED_BYTES = 16 << 20;
/** Written buffers kept for reuse. */
const SPARE_BUFFERS = 8;

export class OutputFile {
  private readonly fd: number;
  private readonly temporary: string;
  private buffer: Uint8Array = new Uint8Array(BUFFER_BYTES);
  private used = 0;
  private open = true;
  private readonly spare: Uint8Array[] = [];
  private queuedBytes = 0;
  private pending = 0;
  private drained: (() => void) | null = null;
  private failure: Error | null = null;
  /** Bytes written so far, buffered included. */
  bytes = 0;

  constructor(private readonly path: string) {
    this.temporary = `${path}.partial`;
    try {
      this.fd = fs.openSync(this.temporary, "w");
    } catch (error) {
      throw outputError(path, "cannot be created", error);
    }
  }

  write(bytes: Uint8Array, start = 0, end = bytes.length): void {
    const length = end - start;
    if (this.used + length > BUFFER_BYTES) this.flush();
    if (length > BUFFER_BYTES) {
      // The caller may reuse `bytes` once this returns: a large piece goes out as a copy.
      this.send(bytes.slice(start, end), length, this.bytes);
      this.bytes += length;
      return;
    }
    this.buffer.set(bytes.subarray(start, end), this.used);
    this.used += length;
    this.bytes += length;
  }

  /** Flushes, waits for every write, closes and gives the file its final name. */
  async commit(): Promise<void> {
    this.flush();
    await this.settled();
    fs.closeSync(this.fd);
    this.open = false;
    if (this.failure) {
      await fs.promises.rm(this.temporary, { force: true });
      throw this.failure;
    }
    await fs.promises.rename(this.temporary, this.path);
  }

  /** Waits for the writes under way, closes and removes the temporary file. */
  async discard(): Promise<void> {
    await this.settled();
    if (this.open) fs.closeSync(this.fd);
    this.open = false;
    await fs.promises.rm(this.temporary, { force: true });
  }

  /** Sends the filled part of the current buffer and starts a fresh one. */
  private flush(): void {
    if (this.used === 0) return;
    this.send(this.buffer, this.used, this.bytes - this.used);
    this.buffer = this.spare.pop() ?? new Uint8Array(BUFFER_BYTES);
    this.used = 0;
  }

  /** Writes `data[0..length)` at file offset `position`: on the pool, or here when too much is queued already. */
  private send(data: Uint8Array, length: number, position: number): void {
    if (this.failure) return;
    if (this.queuedBytes + length > MAX_QUEUED_BYTES) {
      try {
        for (let at = 0; at < length; ) at += fs.writeSync(this.fd, data, at, length - at, position + at);
      } catch (error) {
        this.failure = outputError(this.path, `could not be written at byte ${position}`, error);
        throw this.failure;
      }
      this.recycle(data);
      return;
    }
    this.queuedBytes += length;
    this.pending++;
    this.writeAsync(data, 0, length, position);
  }

  private writeAsync(data: Uint8Array, at: number, length: number, position: number): void {
    fs.write(this.fd, data, at, length - at, position + at, (error, written) => {
      if (!error && at + written < length) {
        this.writeAsync(data, at + written, length, position);
        return;
      }
      if (error) this.failure ??= outputError(this.path, `could not be written at byte ${position}`, error);
      this.queuedBytes -= length;
      this.recycle(data);
      if (--this.pending === 0 && this.drained) {
        this.drained();
        this.drained = null;
      }
    });
  }

  private recycle(data: Uint8Array): void {
    if (data.length === BUFFER_BYTES && data !== this.buffer && this.spare.length < SPARE_BUFFERS)
      this.spare.push(data);
  }

  private settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.drained = resolve;
    });
  }
}

/** A file system error as OUTPUT_FAILED naming the output and the system's reason (e.g. "ENOSPC: no space left"). */
function outputError(file: string, what: string, error: unknown): TracemillError {
  const reason = error instanceof Error ? error.message.replace(/, \w+ '.*'$|, \w+$/, "") : String(error);
  return new TracemillError("OUTPUT_FAILED", `${file}: ${what} (${reason})`, { file, cause: error });
}
