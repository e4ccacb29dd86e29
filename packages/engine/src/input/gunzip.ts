// The one gunzip of capture bytes: inflated on libuv's pool as a stream, bounded (a gzip bomb is refused, not
// inflated), and every zlib or I/O failure turned into a TracemillError that says where and why.
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { TracemillError } from "@tracemill/core/errors";

/** How far a gzip input may inflate (docs/formats.md, "gzip"). */
export interface InflateLimits {
  /** Inflated bytes up to which any ratio is accepted (small files of zeros are no threat). */
  ratioFrom: number;
  /** Past ratioFrom, inflated bytes per compressed byte read so far. */
  maxRatio: number;
  /** Inflated bytes allowed at all. */
  maxBytes: number;
}

/**
 * Real captures compress 2–10:1 and a bulk transfer of zero-filled payloads about 60:1; deflate cannot exceed
 * 1032:1, which is what a bomb uses. 64 GiB bounds what the server's worker writes to disk for one input.
 */
export const INFLATE_LIMITS: InflateLimits = {
  ratioFrom: 64 * 1024 * 1024,
  maxRatio: 200,
  maxBytes: 64 * 1024 * 1024 * 1024,
};

/** What a failure of the input says: where (offsets) and why; the caller adds the file and the packets read. */
export interface InputFault {
  where: string;
  why: string;
}

/** A TracemillError for a failure of the input itself (not of the capture's records), without the file name. */
export function inputFault(where: string, why: string, offset: number, extra: Record<string, unknown> = {}) {
  return new TracemillError("BAD_INPUT", `${where}: ${why}`, { offset, where, why, ...extra });
}

/**
 * The error naming `file` and how many packets were read before the fault: DAMAGED_INPUT once packets were read,
 * BAD_INPUT before. Errors that already name their file pass unchanged; anything that is not an input fault (a
 * TracemillError of another kind, or a programming error) too.
 */
export function namedFault(error: unknown, file: string, packets: number): unknown {
  if (!(error instanceof TracemillError)) return error;
  const { where, why } = error.context as Partial<InputFault>;
  if (error.context.file !== undefined || where === undefined || why === undefined) return error;
  const after = packets > 0 ? ` (after ${packets} packet${packets === 1 ? "" : "s"})` : "";
  return new TracemillError(packets > 0 ? "DAMAGED_INPUT" : "BAD_INPUT", `${file}: ${where}${after}: ${why}`, {
    ...error.context,
    file,
    packetsRead: packets,
  });
}

/** An I/O error reading a file (EIO, EISDIR, …) at a byte offset. */
export function readFault(error: unknown, offset: number): TracemillError {
  if (error instanceof TracemillError) return error;
  const e = error as NodeJS.ErrnoException;
  const code = e.code ?? "read error";
  const why =
    e.code === "EISDIR"
      ? "it is a directory, not a file"
      : e.message?.startsWith(code)
        ? e.message
        : `${code}: ${e.message}`;
  return inputFault(`read error at byte ${offset}`, why, offset);
}

/** Inflated chunks of a gzip file, in order, checked against the limits; the stream runs on libuv's pool. */
export class GzipInput {
  /** Compressed bytes read from the file so far. */
  get fileBytesRead(): number {
    return this.stream.bytesRead;
  }
  /** Inflated bytes delivered so far. */
  inflatedBytes = 0;
  private readonly stream: fs.ReadStream;
  private readonly gunzip: zlib.Gunzip;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(
    file: string,
    private readonly fileSize: number,
    chunkBytes: number,
    private readonly limits: InflateLimits = INFLATE_LIMITS,
  ) {
    this.stream = fs.createReadStream(file, { highWaterMark: Math.min(chunkBytes, 256 * 1024) });
    this.gunzip = zlib.createGunzip({ chunkSize: Math.max(64, Math.min(chunkBytes, 1024 * 1024)) });
    this.stream.on("error", (error) => this.gunzip.destroy(readFault(error, this.stream.bytesRead)));
    this.chunks = this.stream.pipe(this.gunzip)[Symbol.asyncIterator]();
  }

  /** The next inflated chunk, or null at the end; a damaged, cut or oversized stream throws inputFault. */
  async read(): Promise<Buffer | null> {
    let step: IteratorResult<Buffer>;
    try {
      step = await this.chunks.next();
    } catch (error) {
      throw this.fault(error);
    }
    if (step.done) return null;
    const why = overLimit(this.inflatedBytes + step.value.length, this.gunzip.bytesWritten, this.limits);
    if (why !== null) {
      // Refused before its bytes are delivered: the reading stops at what was handed out so far.
      const where = this.where();
      this.close();
      throw inputFault(where, why, this.inflatedBytes);
    }
    this.inflatedBytes += step.value.length;
    return step.value;
  }

  close(): void {
    this.stream.destroy();
    this.gunzip.destroy();
  }

  /** Where reading stands: what zlib consumed (the fault lies past it, within what was read) and delivered. */
  private where(): string {
    const consumed = this.gunzip.bytesWritten;
    const read = this.stream.bytesRead;
    const at = consumed >= read ? `at compressed byte ${consumed}` : `between compressed bytes ${consumed} and ${read}`;
    return `gzip input ${at} of ${this.fileSize}, inflated byte ${this.inflatedBytes}`;
  }

  private fault(error: unknown): TracemillError {
    if (error instanceof TracemillError) return error;
    return inputFault(this.where(), zlibReason(error), this.inflatedBytes, {
      compressedOffset: this.gunzip.bytesWritten,
    });
  }
}

/**
 * Inflates the gzip file `source` into `target` (for tools that read plain files only: Suricata, the server's
 * worker) under the same limits; a failure removes the partial target and throws an error naming `name`.
 */
export async function gunzipToFile(
  source: string,
  target: string,
  options: { name?: string; signal?: AbortSignal; limits?: InflateLimits } = {},
): Promise<void> {
  const name = options.name ?? source;
  let size: number;
  try {
    size = fs.statSync(source).size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new TracemillError("NOT_FOUND", `${name}: cannot open the file (${code})`, { file: name });
  }
  const input = new GzipInput(source, size, 1024 * 1024, options.limits);
  const out = fs.createWriteStream(target);
  try {
    await pipeline(
      async function* () {
        for (let chunk = await input.read(); chunk !== null; chunk = await input.read()) yield chunk;
      },
      out,
      { signal: options.signal },
    );
  } catch (error) {
    input.close();
    fs.rmSync(target, { force: true });
    if (error instanceof TracemillError) throw namedFault(error, name, 0);
    if (options.signal?.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new TracemillError("OUTPUT_FAILED", `${target}: the inflated copy of ${name} cannot be written (${code})`, {
      file: target,
      cause: error,
    });
  }
}

function overLimit(inflated: number, compressed: number, limits: InflateLimits): string | null {
  if (inflated > limits.maxBytes) {
    return `it inflates past ${bytesText(limits.maxBytes)}, the limit for a gzip input (decompress it yourself to read it)`;
  }
  if (inflated > limits.ratioFrom && inflated > compressed * limits.maxRatio) {
    return `it inflates more than ${limits.maxRatio} times its compressed size past ${bytesText(limits.ratioFrom)} (a gzip bomb, not a capture)`;
  }
  return null;
}

function zlibReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "Z_BUF_ERROR") return `the gzip data ends early, cut short (${e.message})`;
  if (e.code === "Z_DATA_ERROR") return `the gzip data is damaged (${e.message})`;
  return `${e.code ?? "gzip error"}: ${e.message ?? String(error)}`;
}

function bytesText(bytes: number): string {
  if (bytes >= 2 ** 30 && bytes % 2 ** 30 === 0) return `${bytes / 2 ** 30} GiB`;
  if (bytes >= 2 ** 20 && bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`;
  return `${bytes} bytes`;
}
