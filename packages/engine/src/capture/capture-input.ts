// Reads a capture file as large chunks, gunzipping transparently (gzip found by its magic 1f 8b, not by the name);
// a pipe (standard input, a FIFO) is read in order, as it comes.
import fs from "node:fs";
import { TracemillError } from "@tracemill/core/errors";
import { GzipInput, type InflateLimits, readFault } from "./gunzip.js";

/**
 * Bytes read at a time: about this core's L2 cache, so a chunk read on the parsing thread is parsed from the cache it
 * was copied into. Against 4 MiB, the one-core extract pass of bench-large took 6 % less time (8 alternated pairs,
 * each faster), and the two-core command no more (and 25 MB less memory); 512 KiB was no better.
 */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/** Where standard input is read from: the path the command line gives for "-". */
export const STANDARD_INPUT = "/dev/stdin";

/** What the input uses of an open file: fs.promises' FileHandle, or standard input's descriptor. */
interface InputHandle {
  readonly fd: number;
  read(buffer: Buffer, offset: number, length: number, position: number | null): Promise<{ bytesRead: number }>;
  stat(): Promise<fs.Stats>;
  close(): Promise<void>;
}

/**
 * Standard input, read through its descriptor: /dev/stdin cannot be opened when it is a socket, as the standard
 * input of a process that Node (or another launcher) started with a pipe often is. Left open at close.
 */
function standardInput(): InputHandle {
  const read = (buffer: Buffer, offset: number, length: number, position: number | null) =>
    new Promise<{ bytesRead: number }>((resolve, reject) =>
      fs.read(0, buffer, offset, length, position, (error, bytesRead) => {
        // A descriptor another process set non-blocking has nothing yet: try again shortly.
        if (error?.code === "EAGAIN") setTimeout(() => read(buffer, offset, length, position).then(resolve, reject), 5);
        else if (error) reject(error);
        else resolve({ bytesRead });
      }),
    );
  return {
    fd: 0,
    read,
    stat: () => fs.promises.stat(STANDARD_INPUT).catch(() => fs.fstatSync(0)),
    close: async () => {},
  };
}

export interface CaptureInputOptions {
  /**
   * Plain files are read on the calling thread, with no read-ahead (pipes and gzip are read as ever): the bytes land
   * in this core's cache right before they are parsed. For a pass that only walks record headers this is about
   * three times cheaper (bench/merge); for the extract pass on one core 4–6 % (bench/extract). read() still
   * returns a promise, resolved at once unless a tap holds the buffer; the caller should yield now and then.
   */
  synchronous?: boolean;
  /**
   * Gets the file's bytes as they are read (plain files only; otherwise the input calls `declined()` at once), so a
   * digest needs no second read of the file.
   */
  tap?: ChunkTap;
  /** How far a gzip input may inflate; default INFLATE_LIMITS (docs/formats.md, "gzip"). */
  inflateLimits?: InflateLimits;
}

/**
 * Lets timers and I/O callbacks run (a cancel message, progress going out): passes reading synchronously call it
 * every few chunks, since awaiting their reads alone never gives the event loop a turn.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A consumer of the bytes of a plain file, in file order, as the input reads them into buffers the tap provides. */
export interface ChunkTap {
  /** A buffer for the input to read into (it may be shared with another thread). */
  allocate(bytes: number): Buffer;
  /** Bytes [0, length) of a buffer from allocate() were read: they follow the previously taken bytes in the file. */
  take(buffer: Buffer, length: number): void;
  /** Resolves once a buffer given to take() may be overwritten. */
  released(buffer: Buffer): Promise<void>;
  /** This input will not hand over its bytes. */
  declined(): void;
}

/**
 * Chunks of the (decompressed) file, in order. A chunk stays untouched until the second call to read() after the one
 * that returned it: plain files are read into three buffers in turn, the next chunk read ahead on libuv's pool while
 * the caller parses (unless synchronous).
 */
export class CaptureInput {
  /** Bytes of the file on disk read so far (compressed bytes for .gz). */
  fileBytesRead = 0;
  /** The file's size; 0 for a pipe, whose size is known only at its end (fileBytesRead then). */
  readonly fileSize: number;
  readonly compressed: boolean;
  /** A pipe, FIFO or socket: read in order with no positions, each chunk filled before it is returned. */
  readonly streamed: boolean;
  /** Open for plain files; gzip input is streamed by path instead. */
  private readonly handle: InputHandle | null;
  private readonly buffers: Buffer[] = [];
  private turn = 0;
  private ahead: Promise<number> | null = null;
  private position = 0;
  private gunzip: GzipInput | null = null;
  private readonly synchronous: boolean;
  private readonly tap: ChunkTap | null;

  private constructor(
    handle: InputHandle | null,
    fileSize: number,
    compressed: boolean,
    chunkBytes: number,
    options: CaptureInputOptions,
    streamed = false,
  ) {
    this.handle = handle;
    this.fileSize = fileSize;
    this.compressed = compressed;
    this.streamed = streamed;
    this.synchronous = (options.synchronous ?? false) && !compressed && !streamed;
    const tap = options.tap ?? null;
    this.tap = compressed ? null : tap;
    if (tap !== null && this.tap === null) tap.declined();
    const allocate = (bytes: number) => this.tap?.allocate(bytes) ?? Buffer.allocUnsafe(bytes);
    if (!compressed) {
      // The chunk being read (ahead, or a tap's still being hashed), the one returned and the one before it, whose
      // tail the caller's reader may still have to copy (a record spanning the two) when it pushes the returned one.
      for (let i = 3; i > 0; i--) this.buffers.push(allocate(chunkBytes));
    }
  }

  static async open(
    file: string,
    chunkBytes = DEFAULT_CHUNK_BYTES,
    options: CaptureInputOptions = {},
  ): Promise<CaptureInput> {
    let handle: InputHandle;
    try {
      handle = file === STANDARD_INPUT ? standardInput() : await fs.promises.open(file, "r");
    } catch (error) {
      options.tap?.declined();
      const code = (error as NodeJS.ErrnoException).code;
      throw new TracemillError("NOT_FOUND", `${file}: cannot open the file (${code ?? String(error)})`, { file });
    }
    try {
      const stat = await handle.stat();
      if (stat.isFIFO() || stat.isSocket()) return new CaptureInput(handle, 0, false, chunkBytes, options, true);
      if (!stat.isFile()) throw new TracemillError("BAD_INPUT", `${file}: not a regular file or a pipe`, { file });
      const magic = Buffer.alloc(2);
      const { bytesRead } = await handle.read(magic, 0, 2, 0);
      const compressed = bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
      if (!compressed) return new CaptureInput(handle, stat.size, false, chunkBytes, options);
      await handle.close();
      const input = new CaptureInput(null, stat.size, true, chunkBytes, options);
      input.gunzip = new GzipInput(file, stat.size, chunkBytes, options.inflateLimits);
      return input;
    } catch (error) {
      options.tap?.declined();
      await handle.close();
      throw error;
    }
  }

  /**
   * The next chunk, or null at the end of the input. A read error, damaged or cut gzip data and a gzip input past
   * its inflation limits reject with an input fault (gunzip.ts: namedFault adds the file and packets read).
   */
  async read(): Promise<Uint8Array | null> {
    if (this.gunzip !== null) {
      const chunk = await this.gunzip.read();
      this.fileBytesRead = this.gunzip.fileBytesRead;
      return chunk === null ? null : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    }
    if (this.synchronous) {
      const current = this.turn;
      const buffer = this.buffers[current];
      if (this.tap !== null) await this.tap.released(buffer);
      let bytes: number;
      try {
        bytes = fs.readSync(this.handle!.fd, buffer, 0, buffer.length, this.position);
      } catch (error) {
        throw readFault(error, this.position);
      }
      this.position += bytes;
      this.fileBytesRead = this.position;
      if (bytes === 0) return null;
      this.tap?.take(buffer, bytes);
      this.turn = current === 2 ? 0 : current + 1;
      return new Uint8Array(buffer.buffer, buffer.byteOffset, bytes);
    }
    const current = this.turn;
    const first = this.position === 0;
    const bytes = await (this.ahead ?? this.readInto(current));
    this.ahead = null;
    if (bytes === 0) return null;
    if (
      first &&
      this.streamed &&
      bytes >= 2 &&
      this.buffers[current][0] === 0x1f &&
      this.buffers[current][1] === 0x8b
    ) {
      throw new TracemillError(
        "BAD_INPUT",
        "gzip-compressed data on a pipe: decompress it before the pipe (zcat FILE | tracemill …), or give the file",
        {},
      );
    }
    this.turn = current === 2 ? 0 : current + 1;
    this.ahead = this.readInto(this.turn);
    this.ahead.catch(() => {});
    const buffer = this.buffers[current];
    return new Uint8Array(buffer.buffer, buffer.byteOffset, bytes);
  }

  /**
   * Reads a pipe to its end (handing its bytes to the tap), so that its size and digest are of all of it even when
   * the caller stopped reading at damage, and its writer is not cut off. Regular files need nothing. Stops early
   * once `signal` is aborted.
   */
  async drain(signal?: AbortSignal): Promise<void> {
    if (!this.streamed) return;
    while (!signal?.aborted && (await this.read()) !== null);
  }

  async close(): Promise<void> {
    this.gunzip?.close();
    await this.ahead?.catch(() => 0);
    await this.handle?.close();
  }

  private async readInto(index: number): Promise<number> {
    const buffer = this.buffers[index];
    if (this.tap !== null) await this.tap.released(buffer);
    let bytesRead = 0;
    try {
      if (this.streamed) {
        // A pipe gives what its writer has written (64 KiB at most at a time): the chunk is filled up to its end.
        for (let n = -1; n !== 0 && bytesRead < buffer.length; bytesRead += n) {
          n = (await this.handle!.read(buffer, bytesRead, buffer.length - bytesRead, null)).bytesRead;
        }
      } else {
        bytesRead = (await this.handle!.read(buffer, 0, buffer.length, this.position)).bytesRead;
      }
    } catch (error) {
      throw readFault(error, this.position + bytesRead);
    }
    this.position += bytesRead;
    this.fileBytesRead = this.position;
    if (this.tap !== null && bytesRead > 0) this.tap.take(buffer, bytesRead);
    return bytesRead;
  }
}
