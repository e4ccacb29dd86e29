// A file written under a temporary name and renamed into place only when complete; removed on failure.
// Writes are queued and run on libuv's thread, in parallel with the merge; `drain()` paces the producer.
import fs from "node:fs";

/** Queued bytes beyond which the producer waits (drain) before handing over more. */
const HIGH_WATER = 16 * 1024 * 1024;

export class AtomicFile {
  private readonly fd: number;
  private readonly temporary: string;
  private open = true;
  private readonly queue: Uint8Array[] = [];
  private writing = false;
  private queuedBytes = 0;
  private failure: Error | null = null;
  private waiters: (() => void)[] = [];
  bytes = 0;

  constructor(readonly file: string) {
    this.temporary = `${file}.partial`;
    this.fd = fs.openSync(this.temporary, "w");
  }

  /** Queues a chunk, which becomes the file's (the caller must not reuse it). */
  readonly write = (chunk: Uint8Array): void => {
    if (this.failure) throw this.failure;
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    this.bytes += chunk.length;
    if (!this.writing) this.writeNext();
  };

  /** True when the producer should wait for `drain()` before writing more. */
  get full(): boolean {
    return this.queuedBytes > HIGH_WATER;
  }

  /** Resolves once every queued chunk is written; rejects with the first write error. */
  drain(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.writing) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push(() => resolve())).then(() => {
      if (this.failure) throw this.failure;
    });
  }

  async commit(): Promise<void> {
    await this.drain();
    fs.closeSync(this.fd);
    this.open = false;
    fs.renameSync(this.temporary, this.file);
  }

  /** Removes the partial file; safe to call at any point, also while writes are queued. */
  abort(): void {
    this.queue.length = 0;
    this.failure ??= new Error("aborted");
    const remove = () => {
      if (this.open) fs.closeSync(this.fd);
      this.open = false;
      fs.rmSync(this.temporary, { force: true });
    };
    if (this.writing) this.waiters.push(remove);
    else remove();
  }

  private writeNext(): void {
    const chunk = this.queue.shift();
    if (!chunk) {
      this.writing = false;
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
      return;
    }
    this.writing = true;
    this.writeFrom(chunk, 0);
  }

  private writeFrom(chunk: Uint8Array, done: number): void {
    fs.write(this.fd, chunk, done, chunk.length - done, null, (error, written) => {
      if (error) {
        this.failure ??= error;
        this.queue.length = 0;
        this.writeNext();
        return;
      }
      if (done + written < chunk.length) {
        this.writeFrom(chunk, done + written);
        return;
      }
      this.queuedBytes -= chunk.length;
      this.writeNext();
    });
  }
}
