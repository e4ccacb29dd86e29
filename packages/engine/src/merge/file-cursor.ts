// One capture file (plain or gzip-compressed) as a merge source: engine/capture's chunked input pushed into the
// core reader found from the magic bytes. Unlike a capture cursor it throws on damage, naming the file: a merge
// with a damaged input stops.
import { type CapturedPacket, type CaptureInfo, openPacketSource, type PacketSource } from "@tracemill/core/capture";
import { isTracemillError, TracemillError } from "@tracemill/core/errors";
import { CaptureInput } from "../capture/index.js";
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
      const chunk = await this.input.read();
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

  /** Stops reading and releases the file. */
  async close(): Promise<void> {
    this.ended = true;
    await this.input.close();
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
