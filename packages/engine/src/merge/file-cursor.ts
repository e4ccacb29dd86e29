// One capture file (plain or gzip-compressed) as a merge source: engine/capture's chunked input pushed into the
// core reader found from the magic bytes. Unlike a capture cursor it throws on damage, naming the file: a merge
// with a damaged input stops.
import { type CapturedPacket, type CaptureInfo, openPacketSource, type PacketSource } from "@tracemill/core/capture";
import { CaptureInput } from "../capture/index.js";
import { readChunk, readFirstChunk, withFile, withFileName } from "../capture/read-capture.js";
import type { MergeSource } from "./merge-source.js";

export class FileCursor implements MergeSource {
  private source: PacketSource | null = null;
  private ended = false;

  private constructor(
    private readonly input: CaptureInput,
    /** The name errors and summaries use (as the user gave it). */
    readonly name: string,
  ) {}

  static async open(file: string, name: string): Promise<FileCursor> {
    return new FileCursor(await CaptureInput.open(file), name);
  }

  /** The capture's facts so far (complete once every packet was read); null before the first fill. */
  get info(): CaptureInfo | null {
    return this.source?.info ?? null;
  }

  /** Bytes of the file read so far (compressed bytes for .gz), for progress. */
  get bytesRead(): number {
    return this.input.fileBytesRead;
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
      if (this.source === null) {
        // At least SNIFF_BYTES for the sniffer (gzip output can come in small pieces); an empty file gets the
        // reader's "empty file" message from sniffing nothing.
        const first = await readFirstChunk(this.input, this.name);
        this.source = withFile(this.name, () => openPacketSource(first ?? new Uint8Array(0)));
        if (first === null) this.end(this.source);
        return true;
      }
      const chunk = await readChunk(this.input, this.name, this.source);
      if (chunk === null) this.end(this.source);
      else this.source.push(chunk);
      return true;
    } catch (error) {
      throw this.named(error);
    }
  }

  private end(source: PacketSource): void {
    this.ended = true;
    source.end();
  }

  /** Stops reading and releases the file. */
  async close(): Promise<void> {
    this.ended = true;
    await this.input.close();
  }

  private named(error: unknown): unknown {
    return withFileName(error, this.name);
  }
}
