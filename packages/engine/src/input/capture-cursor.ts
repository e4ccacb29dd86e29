// A pull cursor over one capture, for code that interleaves several inputs (merging by timestamp) or waits between
// packets (writing with back-pressure).
import type { CaptureDamage, CapturedPacket, CaptureInfo, PacketSource } from "@tracemill/core/capture";
import { CaptureInput } from "./capture-input.js";
import { damageOf, openSource, readChunk, withFileName } from "./opened-source.js";

export interface CaptureCursorOptions {
  /** Bytes read from disk at a time; default 1 MiB (DEFAULT_CHUNK_BYTES). */
  chunkBytes?: number;
  /** Read each chunk on this thread when it is needed (CaptureInputOptions.synchronous); default: read ahead. */
  synchronous?: boolean;
  /** The name errors and damage use; default the file's path. */
  name?: string;
  /**
   * Damage part-way: "stop" (default) ends the cursor with `damage` set, the packets before it delivered; "throw"
   * rejects with the DAMAGED_INPUT error (a merge stops at a damaged input). Damage before any packet always throws
   * BAD_INPUT.
   */
  damage?: "stop" | "throw";
}

/**
 * next() is synchronous and returns the next packet, or null when it needs input: then `await fill()`
 * (false once the input is exhausted, when `done` is true). The packet is reused: it is valid until the
 * next call to next() or fill().
 *
 *     for (;;) {
 *       const packet = cursor.next();
 *       if (packet !== null) { use(packet); continue; }
 *       if (!(await cursor.fill())) break;
 *     }
 */
export class CaptureCursor {
  damage: CaptureDamage | null = null;
  private ended = false;

  private constructor(
    /** The name errors use. */
    readonly name: string,
    private readonly input: CaptureInput,
    private readonly source: PacketSource,
    private readonly stopAtDamage: boolean,
  ) {}

  /** Opens the file, reads its first chunk and picks the reader (BAD_INPUT when it is not a capture). */
  static async open(file: string, options: CaptureCursorOptions = {}): Promise<CaptureCursor> {
    const name = options.name ?? file;
    const input = await CaptureInput.open(file, options.chunkBytes, { synchronous: options.synchronous });
    try {
      const { source, first } = await openSource(input, name);
      const cursor = new CaptureCursor(name, input, source, options.damage !== "throw");
      if (first === null) cursor.end();
      return cursor;
    } catch (error) {
      await input.close();
      throw error;
    }
  }

  get info(): CaptureInfo {
    return this.source.info;
  }

  /** True when every packet was delivered or reading stopped at damage. */
  get done(): boolean {
    return this.source.done || this.damage !== null;
  }

  /** Packets delivered so far. */
  get packetCount(): number {
    return this.source.packetCount;
  }

  /** Bytes of the file read so far (compressed bytes for .gz), and its size (0 for a pipe), for progress. */
  get bytesRead(): number {
    return this.input.fileBytesRead;
  }

  get fileSize(): number {
    return this.input.fileSize;
  }

  /** Comments of the packet last returned (pcapng). */
  packetComments(): string[] {
    return this.source.packetComments();
  }

  next(): CapturedPacket | null {
    if (this.damage !== null) return null;
    try {
      return this.source.next();
    } catch (error) {
      this.failed(error);
      return null;
    }
  }

  /** Loads more input; false when there is none left (or reading stopped at damage). */
  async fill(): Promise<boolean> {
    if (this.done) return false;
    if (this.ended) return !this.source.done;
    try {
      const chunk = await readChunk(this.input, this.name, this.source);
      if (chunk === null) this.end();
      else this.source.push(chunk);
      return true;
    } catch (error) {
      this.failed(error);
      return false;
    }
  }

  /** Stops reading and releases the file. */
  async close(): Promise<void> {
    this.ended = true;
    await this.input.close();
  }

  private end(): void {
    this.ended = true;
    this.source.end();
  }

  private failed(error: unknown): void {
    if (!this.stopAtDamage) throw withFileName(error, this.name);
    this.damage = damageOf(error, this.name, this.source);
  }
}

/** Opens a cursor over a capture file: see CaptureCursor. */
export function openCaptureCursor(file: string, options?: CaptureCursorOptions): Promise<CaptureCursor> {
  return CaptureCursor.open(file, options);
}
