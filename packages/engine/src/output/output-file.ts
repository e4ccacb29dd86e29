// An output file filled through 1 MiB buffers, written under a temporary name and renamed only when complete.
// Full buffers are written on libuv's thread pool, each at its own file offset, so the caller's thread goes on
// formatting while the kernel copies (docs/performance.md). Opt-in: a reserved
// prefix filled in at the end, and a running CRC-32 (the images zip's features.csv is written in place this way).
import fs from "node:fs";
import zlib from "node:zlib";
import { TracemillError } from "@tracemill/core/errors";

const BUFFER_BYTES = 1 << 20;
/** Bytes queued beyond which a buffer is written at once on the caller's thread, so that memory stays bounded. */
const MAX_QUEUED_BYTES = 16 << 20;
/** Written buffers kept for reuse. */
const SPARE_BUFFERS = 8;

export interface OutputFileOptions {
  /** Bytes left at the start of the file, to be filled by `writeAt` (a header known only at the end). */
  reserve?: number;
  /** Keep the CRC-32 of the bytes written after the reserve, for `takeCrc` (computed per buffer as it is sent). */
  crc?: boolean;
}

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
  /** The file offset of the write `failure` is about, when it came from a write on the pool. */
  private failedAt = Number.POSITIVE_INFINITY;
  private readonly reserve: number;
  private crc: number | null;
  /** The file offset of the next byte: the reserve and the bytes written so far, buffered included. */
  bytes: number;

  constructor(
    readonly path: string,
    options: OutputFileOptions = {},
  ) {
    this.reserve = options.reserve ?? 0;
    this.bytes = this.reserve;
    this.crc = options.crc === true ? 0 : null;
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

  /**
   * Appends the whole of the scratch file at `source` and removes it; returns its length. The file is copied from its
   * end, 1 MiB at a time, and shortened behind each piece, so that the copy reuses the page-cache memory the file
   * held rather than taking as much again (writing into memory freed a moment before is several times cheaper than
   * into memory the run has not used). Written at once, on the caller's thread.
   */
  moveFileIn(source: string): number {
    if (this.crc !== null) throw new RangeError(`${this.path}: the CRC-32 is taken before a file is moved in`);
    this.flush();
    const start = this.bytes;
    // Empty after the flush: the copy's buffer.
    const piece = this.buffer;
    const fd = fs.openSync(source, "r+");
    let size = 0;
    try {
      size = fs.fstatSync(fd).size;
      for (let end = size; end > 0; ) {
        const from = Math.floor((end - 1) / BUFFER_BYTES) * BUFFER_BYTES;
        for (let at = 0; at < end - from; ) {
          const read = fs.readSync(fd, piece, at, end - from - at, from + at);
          if (read === 0) throw new Error(`${source}: shorter than ${from + at + 1} bytes while moved`);
          at += read;
        }
        this.writeNow(piece, end - from, start + from);
        fs.ftruncateSync(fd, from);
        end = from;
      }
    } finally {
      fs.closeSync(fd);
    }
    fs.rmSync(source);
    this.bytes += size;
    return size;
  }

  /** Writes `bytes` into the reserve at `position`, at once. */
  writeAt(bytes: Uint8Array, position: number): void {
    if (position < 0 || position + bytes.length > this.reserve)
      throw new RangeError(`${bytes.length} bytes at ${position} are outside the ${this.reserve}-byte reserve`);
    try {
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(this.fd, bytes, at, bytes.length - at, position + at);
    } catch (error) {
      this.failure ??= outputError(this.path, `could not be written at byte ${position}`, error);
      throw this.failure;
    }
  }

  /** The CRC-32 of every byte written so far after the reserve (the buffer is sent first); no CRC is kept after. */
  takeCrc(): number {
    if (this.crc === null) throw new RangeError(`${this.path}: no CRC-32 kept`);
    this.flush();
    const crc = this.crc;
    this.crc = null;
    return crc;
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
    if (this.crc !== null) this.crc = zlib.crc32(data.subarray(0, length), this.crc);
    if (this.queuedBytes + length > MAX_QUEUED_BYTES) {
      this.writeNow(data, length, position);
      this.recycle(data);
      return;
    }
    this.queuedBytes += length;
    this.pending++;
    this.writeAsync(data, 0, length, position);
  }

  /** Writes `data[0..length)` at file offset `position` on this thread. */
  private writeNow(data: Uint8Array, length: number, position: number): void {
    try {
      for (let at = 0; at < length; ) at += fs.writeSync(this.fd, data, at, length - at, position + at);
    } catch (error) {
      this.failure = outputError(this.path, `could not be written at byte ${position}`, error);
      throw this.failure;
    }
  }

  private writeAsync(data: Uint8Array, at: number, length: number, position: number): void {
    fs.write(this.fd, data, at, length - at, position + at, (error, written) => {
      if (!error && at + written < length) {
        this.writeAsync(data, at + written, length, position);
        return;
      }
      // Writes under way finish in any order: the one reported is the first failing byte's, whichever failed first.
      if (error && (this.failure === null || position < this.failedAt)) {
        this.failure = outputError(this.path, `could not be written at byte ${position}`, error);
        this.failedAt = position;
      }
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
export function outputError(file: string, what: string, error: unknown): TracemillError {
  const reason = error instanceof Error ? error.message.replace(/, \w+ '.*'$|, \w+$/, "") : String(error);
  return new TracemillError("OUTPUT_FAILED", `${file}: ${what} (${reason})`, { file, cause: error });
}
