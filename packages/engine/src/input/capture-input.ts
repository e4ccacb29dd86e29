// Reads a capture file as large chunks, gunzipping transparently (gzip found by its magic 1f 8b, not by the name);
// a pipe (standard input, a FIFO) is read in order, as it comes.
import fs from "node:fs";
import { TracemillError } from "@tracemill/core/errors";
import { GzipInput, type InflateLimits, readFault } from "./gunzip.js";

/**
 * Bytes read at a time: about this core's L2 cache, so a chunk read on the parsing thread is parsed from the cache it
 * was copied into; larger chunks made the one-core extract pass slower and smaller ones no faster (bench/extract,
 * docs/performance.md).
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
   * in this core's cache right before they are parsed, which is cheaper for a pass that only walks record headers
   * (bench/merge) and for the extract pass on one core (bench/extract). read() still
   * returns a promise, resolved at once unless the tap makes it wait; the caller should yield now and then.
   */
  synchronous?: boolean;
  /**
   * Gets the file's bytes as they are read (plain files and pipes; a gzip input ends it at once, since its stored
   * bytes are not what is read), so that a digest needs no second read of the file.
   */
  tap?: ChunkTap;
  /** How far a gzip input may inflate; default INFLATE_LIMITS (docs/formats.md, "gzip"). */
  inflateLimits?: InflateLimits;
  /**
   * The caller is done with a chunk once it asks for the next (it copies a record cut by a chunk's end, as the merge's
   * raw passes do): one buffer serves (two when reading ahead), read into again and again while it is still in this
   * core's cache, which saves a merge hashing on its reading thread the misses of a fresh buffer (bench/merge).
   */
  copiesTails?: boolean;
}

/** Chunks a pass reading on its own thread reads between turns of the event loop (16 MiB of 1 MiB chunks). */
export const CHUNKS_PER_TURN = 16;

/**
 * Lets timers and I/O callbacks run (a cancel message, progress going out): passes reading synchronously call it
 * every CHUNKS_PER_TURN chunks, since awaiting their reads alone never gives the event loop a turn.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Takes the bytes of a plain file or pipe in file order, as the input reads them (the input's hashing). */
export interface ChunkTap {
  /**
   * A buffer of at least `bytes` bytes to read the bytes at `position` into, shared with whoever takes them, or
   * null to read them into the input's own buffer; a promise while the tap's buffers are all still in use. A buffer
   * given is read into again only after at least two more chunks were read.
   */
  buffer(position: number, bytes: number): Buffer | null | Promise<Buffer | null>;
  /** The bytes at `position` were read, into the buffer given or the input's own; none: the input's end. */
  take(position: number, bytes: Uint8Array): void;
  /** No more bytes come: a gzip input, or an input closed before its end. */
  end(): void;
}

/**
 * Chunks of the (decompressed) file, in order. A chunk stays untouched until the second call to read() after the one
 * that returned it: plain files are read into three buffers in turn (or the tap's), the next chunk read ahead on
 * libuv's pool while the caller parses (unless synchronous).
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
  /** The input's own buffers, allocated when first used (a tapped input may read into the tap's only). */
  private readonly buffers: (Buffer | undefined)[] = [];
  private turn = 0;
  /** Own buffers used in turn (see ownBuffer). */
  private readonly turns: number;
  private ahead: Promise<Uint8Array | null> | null = null;
  private position = 0;
  private gunzip: GzipInput | null = null;
  private readonly synchronous: boolean;
  private tap: ChunkTap | null;

  private constructor(
    handle: InputHandle | null,
    fileSize: number,
    compressed: boolean,
    private readonly chunkBytes: number,
    options: CaptureInputOptions,
    streamed = false,
  ) {
    this.handle = handle;
    this.fileSize = fileSize;
    this.compressed = compressed;
    this.streamed = streamed;
    this.synchronous = (options.synchronous ?? false) && !compressed && !streamed;
    this.turns = options.copiesTails === true ? (this.synchronous ? 1 : 2) : 3;
    this.tap = compressed ? null : (options.tap ?? null);
    if (compressed) options.tap?.end();
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
      options.tap?.end();
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
      options.tap?.end();
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
      const position = this.position;
      const buffer = this.tap === null ? this.ownBuffer() : await this.bufferFor(position);
      let bytes: number;
      try {
        bytes = fs.readSync(this.handle!.fd, buffer, 0, this.chunkBytes, position);
      } catch (error) {
        throw readFault(error, position);
      }
      return this.taken(position, buffer, bytes);
    }
    const first = this.position === 0;
    const chunk = await (this.ahead ?? this.readNext());
    this.ahead = null;
    if (chunk === null) return null;
    if (first && this.streamed && chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b) {
      throw new TracemillError(
        "BAD_INPUT",
        "gzip-compressed data on a pipe: decompress it before the pipe (zcat FILE | tracemill …), or give the file",
        {},
      );
    }
    this.ahead = this.readNext();
    this.ahead.catch(() => {});
    return chunk;
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
    await this.ahead?.catch(() => null);
    await this.handle?.close();
    this.tap?.end();
    this.tap = null;
  }

  /** Reads the next chunk on libuv's pool; a pipe's until the chunk is full or the pipe ends. */
  private async readNext(): Promise<Uint8Array | null> {
    const position = this.position;
    const buffer = await this.bufferFor(position);
    let bytesRead = 0;
    try {
      if (this.streamed) {
        // A pipe gives what its writer has written (64 KiB at most at a time): the chunk is filled up to its end.
        for (let n = -1; n !== 0 && bytesRead < this.chunkBytes; bytesRead += n) {
          n = (await this.handle!.read(buffer, bytesRead, this.chunkBytes - bytesRead, null)).bytesRead;
        }
      } else {
        bytesRead = (await this.handle!.read(buffer, 0, this.chunkBytes, position)).bytesRead;
      }
    } catch (error) {
      throw readFault(error, position + bytesRead);
    }
    return this.taken(position, buffer, bytesRead);
  }

  /** The tap's buffer for the chunk at `position` when it gives one, else the input's own buffer of this turn. */
  private bufferFor(position: number): Buffer | Promise<Buffer> {
    const tapped = this.tap?.buffer(position, this.chunkBytes) ?? null;
    if (tapped === null) return this.ownBuffer();
    if (tapped instanceof Promise) return tapped.then((buffer) => buffer ?? this.ownBuffer());
    return tapped;
  }

  /**
   * The own buffers are used in turn: the chunk being read (ahead), the one returned and the one before it, whose
   * tail the caller's reader may still have to copy (a record spanning the two) when it pushes the returned one.
   */
  private ownBuffer(): Buffer {
    const turn = this.turn;
    this.turn = turn + 1 === this.turns ? 0 : turn + 1;
    this.buffers[turn] ??= Buffer.allocUnsafe(this.chunkBytes);
    return this.buffers[turn];
  }

  /** Bytes [0, bytes) of `buffer`, read at `position`, as the next chunk (null at the end), handed to the tap. */
  private taken(position: number, buffer: Buffer, bytes: number): Uint8Array | null {
    this.position = position + bytes;
    this.fileBytesRead = this.position;
    const chunk = new Uint8Array(buffer.buffer, buffer.byteOffset, bytes);
    this.tap?.take(position, chunk);
    return bytes === 0 ? null : chunk;
  }
}
