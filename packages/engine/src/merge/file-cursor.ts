// Reads one capture file (plain or gzip-compressed) as a merge source: chunks of the file pushed into the core
// reader found from the magic bytes. Errors name the file.
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

export class FileCursor implements MergeSource {
  private source: PacketSource | null = null;
  private readonly readChunk: () => Promise<Uint8Array | null>;
  private readonly release: () => void;
  private ended = false;
  private rawBytes = 0;

  constructor(
    file: string,
    /** The name errors and summaries use (as the user gave it). */
    readonly name: string,
  ) {
    if (!fs.existsSync(file)) throw new TracemillError("NOT_FOUND", `${name}: no such file`, { file: name });
    if (isGzip(file)) {
      const raw = fs.createReadStream(file, { highWaterMark: CHUNK_BYTES });
      // The pipe reads the raw stream through 'data' events: watch the same events for the raw bytes.
      raw.on("data", (chunk) => {
        this.rawBytes += chunk.length;
      });
      const gunzip = raw.pipe(zlib.createGunzip({ chunkSize: 1024 * 1024 }));
      raw.on("error", (error) => gunzip.destroy(error));
      const chunks = gunzip[Symbol.asyncIterator]();
      this.readChunk = async () => {
        const result = await chunks.next();
        return result.done ? null : plainView(result.value);
      };
      this.release = () => gunzip.destroy();
    } else {
      // Two buffers, reused in turn: the next chunk is read (on libuv's thread) while the reader parses this one,
      // which it is done with once next() returns null. Fresh buffers for every read would cost page faults and
      // garbage collection on multi-gigabyte inputs.
      const fd = fs.openSync(file, "r");
      const buffers = [new Uint8Array(CHUNK_BYTES), new Uint8Array(CHUNK_BYTES)];
      let turn = 0;
      let closed = false;
      const read = (buffer: Uint8Array) =>
        new Promise<Uint8Array | null>((resolve, reject) => {
          fs.read(fd, buffer, 0, buffer.length, null, (error, bytesRead) => {
            if (error) reject(error);
            else {
              this.rawBytes += bytesRead;
              resolve(bytesRead === 0 ? null : buffer.subarray(0, bytesRead));
            }
          });
        });
      let ahead: Promise<Uint8Array | null> | null = null;
      this.readChunk = async () => {
        const chunk = await (ahead ?? read(buffers[turn]));
        turn ^= 1;
        ahead = chunk && !closed ? read(buffers[turn]) : null;
        // A failed read-ahead is reported by the fill that awaits it.
        ahead?.catch(() => {});
        return chunk;
      };
      this.release = () => {
        if (closed) return;
        closed = true;
        // A read still running keeps the descriptor until it ends.
        const pending = ahead;
        if (pending) pending.finally(() => fs.closeSync(fd)).catch(() => {});
        else fs.closeSync(fd);
      };
    }
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
    try {
      const chunk = await this.readChunk();
      if (!chunk) {
        this.ended = true;
        // An empty file gets the reader's "empty file" message from sniffing nothing.
        if (!this.source) this.source = openPacketSource(new Uint8Array(0));
        this.source.end();
        return true;
      }
      if (!this.source) this.source = openPacketSource(chunk);
      else this.source.push(chunk);
      return true;
    } catch (error) {
      throw this.named(error);
    }
  }

  /** Stops reading (after an error elsewhere), releasing the file. */
  close(): void {
    this.ended = true;
    this.release();
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

/** A plain Uint8Array over a Buffer's bytes: the readers' per-packet subarray() is much cheaper on it. */
function plainView(chunk: Uint8Array): Uint8Array {
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
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
