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
 * write() is synchronous and batches packets into chunks of about 4 MiB written in order in the background.
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
  private chain: Promise<void> = Promise.resolve();
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
    while (this.pendingBytes >= this.highWater && this.failure === null) await this.chain;
    if (this.failure !== null) throw this.failure;
  }

  /** Writes what is left and renames the file into place. */
  async close(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      this.writer.finish();
      await this.chain;
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
    await this.chain;
    await this.discard();
  }

  private enqueue(chunk: Uint8Array): void {
    this.pendingBytes += chunk.length;
    this.chain = this.chain.then(async () => {
      if (this.failure !== null) return;
      try {
        await this.handle.write(chunk, 0, chunk.length);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        this.failure = new TracemillError("TOOL_FAILED", `${this.file}: writing failed (${code ?? String(error)})`, {
          file: this.file,
        });
      } finally {
        this.pendingBytes -= chunk.length;
      }
      // pcap chunks are reused once written (fewer 4 MiB allocations for the GC to free).
      if (this.writer instanceof PcapWriter) this.writer.recycle(chunk);
    });
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
