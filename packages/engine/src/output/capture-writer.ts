// Writes a pcap or pcapng file atomically: into a temporary file beside it, renamed on close, deleted on abort.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import {
  type CapturedPacket,
  PcapngWriter,
  type PcapngWriterOptions,
  PcapWriter,
  type PcapWriterOptions,
} from "@tracemill/core/capture";
import { TracemillError } from "@tracemill/core/errors";

export type CaptureWriterOptions =
  | ({ format: "pcap" } & PcapWriterOptions & WriterTuning)
  | ({ format: "pcapng" } & PcapngWriterOptions & WriterTuning);

interface WriterTuning {
  /** write() returns false once this many bytes wait to be written; default 16 MiB. */
  highWaterBytes?: number;
}

const DEFAULT_BATCH = 4 * 1024 * 1024;
const DEFAULT_HIGH_WATER = 16 * 1024 * 1024;

/**
 * write() is synchronous and batches packets into chunks of about 4 MiB written in the background, several at once.
 * When it returns false, `await drain()` before writing more (backpressure). close() renames the finished
 * file into place; abort() (or a failed close) deletes the temporary file, leaving any older file untouched.
 */
export class CaptureFileWriter {
  readonly file: string;
  private readonly tempFile: string;
  private readonly handle: FileHandle;
  private readonly writer: PcapWriter | PcapngWriter;
  private readonly highWater: number;
  private pendingBytes = 0;
  /** Where the next chunk goes in the file. */
  private position = 0;
  private readonly writing = new Set<Promise<void>>();
  private failure: unknown = null;
  private finished = false;

  private constructor(file: string, tempFile: string, handle: FileHandle, options: CaptureWriterOptions) {
    this.file = file;
    this.tempFile = tempFile;
    this.handle = handle;
    this.highWater = options.highWaterBytes ?? DEFAULT_HIGH_WATER;
    const tuned = { ...options, batchBytes: options.batchBytes ?? DEFAULT_BATCH };
    const sink = (chunk: Uint8Array) => this.enqueue(chunk);
    this.writer = options.format === "pcap" ? new PcapWriter(sink, tuned) : new PcapngWriter(sink, tuned);
  }

  static async open(file: string, options: CaptureWriterOptions): Promise<CaptureFileWriter> {
    const dir = path.dirname(file);
    const tempFile = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
    let handle: FileHandle;
    try {
      handle = await fs.promises.open(tempFile, "wx");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new TracemillError("NOT_FOUND", `${file}: cannot create the file (${code ?? String(error)})`, { file });
    }
    return new CaptureFileWriter(file, tempFile, handle, options);
  }

  get packetCount(): number {
    return this.writer.packetCount;
  }

  /** Adds a packet (with pcapng comments); false means: await drain() before the next write. */
  write(packet: CapturedPacket, comments?: readonly string[]): boolean {
    if (this.failure !== null) throw this.failure;
    if (this.finished) throw new TracemillError("BAD_OPTION", `${this.file}: write() after close() or abort()`);
    if (this.writer instanceof PcapngWriter) this.writer.write(packet, comments);
    else this.writer.write(packet);
    return this.pendingBytes < this.highWater;
  }

  /**
   * pcap only: appends `count` packet records copied verbatim from `bytes[start, end)`, which must already be
   * in the output's layout (see PcapWriter.writeRecords); false means: await drain() before the next write.
   */
  writeRecords(bytes: Uint8Array, start: number, end: number, count: number): boolean {
    if (this.failure !== null) throw this.failure;
    if (this.finished) throw new TracemillError("BAD_OPTION", `${this.file}: write() after close() or abort()`);
    if (!(this.writer instanceof PcapWriter)) {
      throw new TracemillError("BAD_OPTION", `${this.file}: verbatim records can only be copied into pcap`);
    }
    this.writer.writeRecords(bytes, start, end, count);
    return this.pendingBytes < this.highWater;
  }

  /** Resolves once the bytes waiting to be written are below the high-water mark. */
  async drain(): Promise<void> {
    while (this.pendingBytes >= this.highWater && this.failure === null) await Promise.race(this.writing);
    if (this.failure !== null) throw this.failure;
  }

  /** Writes what is left and renames the file into place. */
  async close(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      this.writer.finish();
      await Promise.all(this.writing);
      if (this.failure !== null) throw this.failure;
      await this.handle.close();
      await fs.promises.rename(this.tempFile, this.file);
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  /** Stops and deletes the temporary file. */
  async abort(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    await Promise.all(this.writing);
    await this.discard();
  }

  /**
   * Each chunk is written at its own offset as soon as it is complete, so several writes run on the thread pool at
   * once whether or not the caller yields to the event loop. (Chained, a write started only when the previous one
   * was seen done on the event loop: a merge pass turning every 16 MiB then waited at drain() for its 4 MiB writes
   * one after the other.)
   */
  private enqueue(chunk: Uint8Array): void {
    const at = this.position;
    this.position += chunk.length;
    this.pendingBytes += chunk.length;
    const write = this.writeAt(chunk, at).finally(() => {
      this.pendingBytes -= chunk.length;
      this.writing.delete(write);
      // pcap chunks are reused once written (fewer 4 MiB allocations for the GC to free).
      if (this.writer instanceof PcapWriter) this.writer.recycle(chunk);
    });
    this.writing.add(write);
  }

  private async writeAt(chunk: Uint8Array, at: number): Promise<void> {
    if (this.failure !== null) return;
    try {
      for (let done = 0; done < chunk.length; ) {
        const { bytesWritten } = await this.handle.write(chunk, done, chunk.length - done, at + done);
        if (bytesWritten === 0) throw Object.assign(new Error("no bytes written"), { code: "EIO" });
        done += bytesWritten;
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.failure ??= new TracemillError("TOOL_FAILED", `${this.file}: writing failed (${code ?? String(error)})`, {
        file: this.file,
      });
    }
  }

  private async discard(): Promise<void> {
    await this.handle.close().catch(() => {});
    await fs.promises.rm(this.tempFile, { force: true });
  }
}

/** Opens an atomic capture file writer: see CaptureFileWriter. */
export function openCaptureWriter(file: string, options: CaptureWriterOptions): Promise<CaptureFileWriter> {
  return CaptureFileWriter.open(file, options);
}
