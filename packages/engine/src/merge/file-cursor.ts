// Reads one capture file (plain or gzip-compressed) as a merge source: chunks from a file stream pushed into
// the core reader found from the magic bytes. Errors name the file.
import fs from "node:fs";
import zlib from "node:zlib";
import {
  type CapturedPacket,
  type CaptureInfo,
  isTracemillError,
  openPacketSource,
  type PacketSource,
  TracemillError,
} from "@tracemill/core";
import type { MergeSource } from "./merge-source.js";

const CHUNK_BYTES = 4 * 1024 * 1024;

export interface FileCursorOptions {
  /** Sees every chunk of the file's raw (still compressed) bytes, e.g. to hash them. */
  onRawChunk?: (chunk: Uint8Array) => void;
}

export class FileCursor implements MergeSource {
  private source: PacketSource | null = null;
  private readonly chunks: AsyncIterator<Uint8Array>;
  private ended = false;
  private rawBytes = 0;

  constructor(
    file: string,
    /** The name errors and summaries use (as the user gave it). */
    readonly name: string,
    options: FileCursorOptions = {},
  ) {
    if (!fs.existsSync(file)) throw new TracemillError("NOT_FOUND", `${name}: no such file`, { file: name });
    const raw = fs.createReadStream(file, { highWaterMark: CHUNK_BYTES });
    const gzip = isGzip(file);
    raw.on("data", (chunk) => {
      this.rawBytes += chunk.length;
      options.onRawChunk?.(chunk as Buffer);
    });
    const stream = gzip ? raw.pipe(zlib.createGunzip({ chunkSize: 1024 * 1024 })) : raw;
    raw.on("error", (error) => stream.destroy(error));
    this.chunks = stream[Symbol.asyncIterator]();
  }

  /** The capture's facts so far (complete once every packet was read); null before the first fill. */
  get info(): CaptureInfo | null {
    return this.source?.info ?? null;
  }

  /** Bytes of the file read so far (compressed bytes for .gz), for progress. */
  get bytesRead(): number {
    return this.rawBytes;
  }

  next(): CapturedPacket | null {
    if (!this.source) return null;
    try {
      return this.source.next();
    } catch (error) {
      throw this.named(error);
    }
  }

  packetComments(): string[] {
    return this.source?.packetComments() ?? [];
  }

  async fill(): Promise<boolean> {
    if (this.ended) return false;
    let result: IteratorResult<Uint8Array>;
    try {
      result = await this.chunks.next();
    } catch (error) {
      throw this.named(error);
    }
    try {
      if (result.done) {
        this.ended = true;
        // An empty file gets the reader's "empty file" message from sniffing nothing.
        if (!this.source) this.source = openPacketSource(new Uint8Array(0));
        this.source.end();
        return true;
      }
      if (!this.source) this.source = openPacketSource(result.value);
      else this.source.push(result.value);
      return true;
    } catch (error) {
      throw this.named(error);
    }
  }

  /** Stops reading (after an error elsewhere), releasing the file. */
  close(): void {
    this.ended = true;
    this.chunks.return?.();
  }

  private named(error: unknown): unknown {
    if (isTracemillError(error)) {
      return new TracemillError(error.code, `${this.name}: ${error.message}`, { ...error.context, file: this.name });
    }
    if (error instanceof Error && "code" in error && error.code === "Z_DATA_ERROR") {
      return new TracemillError("DAMAGED_INPUT", `${this.name}: damaged gzip data (${error.message})`, {
        file: this.name,
      });
    }
    return error;
  }
}

function isGzip(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const magic = Buffer.alloc(2);
    return fs.readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}
