// A plain (uncompressed) input read in chunks, into the digest feed's ring while the hashing worker wants those
// bytes next and has a slot free (the worker then reads the rest of the file itself); either one chunk ahead on the
// thread pool while the caller walks the current one, or on the calling thread, which then finds it in its cache.
import fs from "node:fs";
import { TracemillError } from "@tracemill/core/errors";
import { readFault } from "../capture/gunzip.js";
import type { DigestFeed } from "./digest-feed.js";

/**
 * 1 MiB: against 4 MiB, about 0.04 CPU-s less per 240 MB (bench-small, 2 × 21 alternated runs), less memory to
 * fault in and the chunk still in cache when walked and copied; 256 and 512 KiB gained nothing more.
 */
export const CHUNK_BYTES = 1024 * 1024;

export class FedFile {
  /** Bytes of the file handed out so far. */
  fileBytesRead = 0;
  /** Where the next read starts (ahead of fileBytesRead while a read-ahead is pending). */
  private position = 0;
  private readonly own: Buffer[] = [];
  private turn = 0;
  private ahead: Promise<Uint8Array | null> | null = null;

  private constructor(
    private readonly fd: number,
    private readonly feed: DigestFeed | null,
    private readonly input: number,
    private readAhead: boolean,
  ) {
    // Hashed on this thread, the chunk is best read here too: it is then hashed from this core's cache.
    if (feed?.place === "first-pass") this.readAhead = false;
  }

  /**
   * Opens input `input` (0 or 1) of the feed (null: nothing to feed); null for a gzip file (read it through
   * CaptureInput). `readAhead`: for a pass that walks only record headers (it then never waits for a read); a pass
   * that copies the bytes too is cheaper reading them itself (see merge-captures.ts).
   */
  static open(
    file: string,
    feed: DigestFeed | null,
    input: number,
    { readAhead }: { readAhead: boolean },
  ): FedFile | null {
    let fd: number;
    try {
      fd = fs.openSync(file, "r");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new TracemillError("NOT_FOUND", `${file}: cannot open the file (${code ?? String(error)})`, { file });
    }
    try {
      if (!fs.fstatSync(fd).isFile()) throw new TracemillError("BAD_INPUT", `${file}: not a regular file`, { file });
      const magic = Buffer.alloc(2);
      if (fs.readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b) {
        fs.closeSync(fd);
        return null;
      }
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    return new FedFile(fd, feed, input, readAhead);
  }

  /** The next chunk (valid until the next call), or null at the end of the file; a read error is an input fault. */
  async read(): Promise<Uint8Array | null> {
    const chunk = await (this.ahead ?? this.fetch());
    this.ahead = null;
    if (chunk === null) return null;
    this.fileBytesRead += chunk.length;
    if (this.readAhead) {
      this.ahead = this.fetch();
      this.ahead.catch(() => {});
    }
    return chunk;
  }

  async close(): Promise<void> {
    await this.ahead?.catch(() => null);
    fs.closeSync(this.fd);
  }

  private async fetch(): Promise<Uint8Array | null> {
    const position = this.position;
    const feed = this.feed;
    const slot = feed?.slot(this.input, position) ?? null;
    if (slot === null) feed?.outrun(this.input, position);
    const buffer = slot ?? this.ownBuffer();
    let bytes: number;
    try {
      bytes = this.readAhead
        ? await readAt(this.fd, buffer, position)
        : fs.readSync(this.fd, buffer, 0, buffer.length, position);
    } catch (error) {
      throw readFault(error, position);
    }
    if (slot !== null) {
      if (bytes > 0) feed!.publish(this.input, bytes);
    } else feed?.take(this.input, position, new Uint8Array(buffer.buffer, buffer.byteOffset, bytes));
    if (bytes === 0) return null;
    this.position += bytes;
    return new Uint8Array(buffer.buffer, buffer.byteOffset, bytes);
  }

  /** Reading ahead, two buffers alternate: the read ahead never lands in the chunk being walked. */
  private ownBuffer(): Buffer {
    if (this.readAhead) this.turn ^= 1;
    this.own[this.turn] ??= Buffer.allocUnsafe(this.feed?.slotBytes ?? CHUNK_BYTES);
    return this.own[this.turn];
  }
}

function readAt(fd: number, buffer: Buffer, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.read(fd, buffer, 0, buffer.length, position, (error, bytes) => (error ? reject(error) : resolve(bytes))),
  );
}
