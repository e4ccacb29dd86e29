// A pull cursor over one capture, for code that interleaves several inputs (merging by timestamp).
import type { CaptureDamage, CapturedPacket, CaptureInfo, PacketSource } from "@tracemill/core/capture";
import { openPacketSource } from "@tracemill/core/capture";
import { isTracemillError } from "@tracemill/core/errors";
import { CaptureInput } from "./capture-input.js";
import { readChunk, readFirstChunk, withFile, withFileName } from "./read-capture.js";

export interface CaptureCursorOptions {
  /** Bytes read from disk at a time; default 1 MiB (DEFAULT_CHUNK_BYTES). */
  chunkBytes?: number;
}

/**
 * next() is synchronous and returns the next packet, or null when it needs input: then `await fill()`
 * (false once the input is exhausted, when `done` is true). The packet is reused: it is valid until the
 * next call to next() or fill(). Damage part-way sets `damage` and ends the cursor (next() returns null,
 * done is true); damage before any packet throws BAD_INPUT.
 *
 *     for (;;) {
 *       const packet = cursor.next();
 *       if (packet !== null) { use(packet); continue; }
 *       if (!(await cursor.fill())) break;
 *     }
 */
export class CaptureCursor {
  readonly file: string;
  damage: CaptureDamage | null = null;
  private readonly input: CaptureInput;
  private readonly source: PacketSource;
  private ended = false;

  private constructor(file: string, input: CaptureInput, source: PacketSource) {
    this.file = file;
    this.input = input;
    this.source = source;
  }

  /** Opens the file, reads its first chunk and picks the reader (BAD_INPUT when it is not a capture). */
  static async open(file: string, options: CaptureCursorOptions = {}): Promise<CaptureCursor> {
    const input = await CaptureInput.open(file, options.chunkBytes);
    try {
      const first = await readFirstChunk(input, file);
      const source = withFile(file, () => openPacketSource(first ?? new Uint8Array(0)));
      return new CaptureCursor(file, input, source);
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

  /** Comments of the packet last returned (pcapng). */
  packetComments(): string[] {
    return this.source.packetComments();
  }

  next(): CapturedPacket | null {
    if (this.damage !== null) return null;
    try {
      return this.source.next();
    } catch (error) {
      this.noteDamage(error);
      return null;
    }
  }

  /** Loads more input; false when there is none left (or reading stopped at damage). */
  async fill(): Promise<boolean> {
    if (this.done) return false;
    if (this.ended) return !this.source.done;
    try {
      const chunk = await readChunk(this.input, this.file, this.source);
      if (chunk === null) {
        this.ended = true;
        this.source.end();
      } else this.source.push(chunk);
      return true;
    } catch (error) {
      this.noteDamage(error);
      return false;
    }
  }

  async close(): Promise<void> {
    await this.input.close();
  }

  private noteDamage(error: unknown): void {
    if (!isTracemillError(error) || error.code !== "DAMAGED_INPUT") throw withFileName(error, this.file);
    const named = withFileName(error, this.file) as { message: string; context: { offset?: number } };
    this.damage = { offset: named.context.offset ?? this.source.consumedBytes, message: named.message };
  }
}

/** Opens a cursor over a capture file: see CaptureCursor. */
export function openCaptureCursor(file: string, options?: CaptureCursorOptions): Promise<CaptureCursor> {
  return CaptureCursor.open(file, options);
}
