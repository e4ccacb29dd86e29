// Collects a writer's output into large chunks handed to a sink, so file writes are few and big.

/** Receives each finished chunk; the chunk is the sink's to keep (the writer never touches it again). */
export type ByteSink = (chunk: Uint8Array) => void;

export const DEFAULT_BATCH_BYTES = 1024 * 1024;

export class ByteBatch {
  buf: Uint8Array;
  view: DataView;
  used = 0;
  private readonly sink: ByteSink;
  private readonly batchBytes: number;
  /** Chunks the sink gave back once written, reused instead of allocating (see recycle()). */
  private readonly spare: Uint8Array[] = [];

  constructor(sink: ByteSink, batchBytes = DEFAULT_BATCH_BYTES) {
    this.sink = sink;
    this.batchBytes = batchBytes;
    this.buf = new Uint8Array(batchBytes);
    this.view = new DataView(this.buf.buffer);
  }

  /** Room for n more bytes; returns the offset to write them at (in `buf` / `view`). */
  reserve(n: number): number {
    if (this.used + n > this.buf.length) {
      this.flush();
      if (n > this.buf.length) {
        this.buf = new Uint8Array(n);
        this.view = new DataView(this.buf.buffer);
      }
    }
    const at = this.used;
    this.used += n;
    return at;
  }

  /** Hands what was written so far to the sink and starts a new chunk. */
  flush(): void {
    if (this.used === 0) return;
    this.sink(this.buf.subarray(0, this.used));
    this.buf = this.spare.pop() ?? new Uint8Array(this.batchBytes);
    this.view = new DataView(this.buf.buffer);
    this.used = 0;
  }

  /**
   * Takes back a chunk the sink has finished with, to be filled again. Its old bytes stay until overwritten,
   * so only writers that set every byte they reserve may let their sink recycle (zero padding would leak).
   */
  recycle(chunk: Uint8Array): void {
    if (chunk.byteOffset === 0 && chunk.buffer.byteLength === this.batchBytes && this.spare.length < 4) {
      this.spare.push(new Uint8Array(chunk.buffer));
    }
  }
}
