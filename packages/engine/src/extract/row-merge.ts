// Merges the session workers' row streams of `extract --threads N` into the single-thread row order: each stream is
// in its worker's start order with merge keys (global addition numbers), and a row is written once no worker can
// still send a row with a smaller key (every worker's watermark is above it).
import type { RowSpill } from "@tracemill/core";
import type { RowBatch } from "./shard-protocol.js";

/** Where merged rows go; `bytes` is only valid during the call. */
export type MergedRowSink = (bytes: Uint8Array, start: number, end: number) => void;

/** A batch written to its stream's spill (bytes, ends, keys), read back when it comes to the head of the stream. */
interface SpilledBatch {
  position: number;
  count: number;
  byteLength: number;
}

interface Stream {
  batches: (RowBatch | SpilledBatch)[];
  /** Next row of batches[0]. */
  row: number;
  watermark: number;
  spill: RowSpill | null;
  spillEnd: number;
  /** The batch read back from the spill, at the head of `batches` (not a worker's buffers: never recycled). */
  loaded: RowBatch | null;
  /** Batches of the worker's own buffers held in `batches` (not spilled, not read back). */
  held: number;
}

/**
 * Where batches go once the rows held exceed `memoryBytes`, or once a stream holds `heldBatches` of its worker's
 * buffers (which it waits for beyond a number of them: see RowOutbox): one spill per stream.
 */
export interface RowMergeSpill {
  spills: RowSpill[];
  memoryBytes: number;
  heldBatches?: number;
}

export class RowMerge {
  /** Rows written so far. */
  rows = 0;
  private readonly streams: Stream[];
  private heldBytes = 0;
  private readonly memoryBytes: number;
  private readonly heldBatches: number;

  /**
   * `recycle` gets every batch once all its rows are written, or once it is spilled (to give its buffers back to its
   * worker). Without `spill` every batch waits in memory.
   */
  constructor(
    workers: number,
    private readonly sink: MergedRowSink,
    private readonly recycle: (worker: number, batch: RowBatch) => void,
    spill?: RowMergeSpill,
  ) {
    this.memoryBytes = spill?.memoryBytes ?? Number.POSITIVE_INFINITY;
    this.heldBatches = spill?.heldBatches ?? Number.POSITIVE_INFINITY;
    this.streams = Array.from({ length: workers }, (_, i) => ({
      batches: [],
      row: 0,
      watermark: 0,
      spill: spill?.spills[i] ?? null,
      spillEnd: 0,
      loaded: null,
      held: 0,
    }));
  }

  /** Row bytes held in memory (batches received and not yet written, not spilled). */
  get bufferedBytes(): number {
    return this.heldBytes;
  }

  /** Rows held: received but waiting for a worker whose watermark is behind them. */
  get waiting(): number {
    let rows = 0;
    for (const stream of this.streams) {
      for (const batch of stream.batches) rows += batch.count;
      rows -= stream.row;
    }
    return rows;
  }

  /** Takes `worker`'s next batch (its rows follow the ones it sent before) and writes every row now in order. */
  add(worker: number, batch: RowBatch): void {
    const stream = this.streams[worker];
    if (batch.watermark < stream.watermark) throw new RangeError(`worker ${worker}'s watermark went back`);
    stream.watermark = batch.watermark;
    if (batch.count === 0) {
      this.recycle(worker, batch);
    } else if (
      stream.spill !== null &&
      (this.heldBytes + batch.ends[batch.count - 1] > this.memoryBytes || stream.held >= this.heldBatches)
    ) {
      stream.batches.push(spillBatch(stream, stream.spill, batch));
      this.recycle(worker, batch);
    } else {
      stream.batches.push(batch);
      stream.held++;
      this.heldBytes += batch.ends[batch.count - 1];
    }
    this.drain();
  }

  private drain(): void {
    const streams = this.streams;
    let limit = Number.POSITIVE_INFINITY;
    for (const stream of streams) if (stream.watermark < limit) limit = stream.watermark;
    for (;;) {
      // The stream whose next row has the smallest key, and the smallest key of the others' next rows.
      let best = -1;
      let bestKey = limit;
      let otherKey = limit;
      for (let i = 0; i < streams.length; i++) {
        const stream = streams[i];
        if (stream.batches.length === 0) continue;
        const key = head(stream).keys[stream.row];
        if (key < bestKey) {
          otherKey = bestKey;
          bestKey = key;
          best = i;
        } else if (key < otherKey) otherKey = key;
      }
      if (best < 0) return;
      // Rows of the best stream go out in a run until one is not below the next key elsewhere.
      const stream = streams[best];
      const batch = head(stream);
      const { keys, ends, bytes, count } = batch;
      let row = stream.row;
      const first = row;
      while (row < count && keys[row] < otherKey) row++;
      this.sink(bytes, first === 0 ? 0 : ends[first - 1], ends[row - 1]);
      this.rows += row - first;
      if (row === count) {
        stream.batches.shift();
        stream.row = 0;
        if (batch === stream.loaded) {
          stream.loaded = null;
        } else {
          this.heldBytes -= ends[count - 1];
          stream.held--;
          this.recycle(best, batch);
        }
      } else {
        stream.row = row;
      }
    }
  }
}

/** The stream's first batch, read back first if it was spilled. */
function head(stream: Stream): RowBatch {
  const first = stream.batches[0];
  if ("bytes" in first) return first;
  const { position, count, byteLength } = first;
  const bytes = new Uint8Array(byteLength);
  const ends = new Int32Array(count);
  const keys = new Float64Array(count);
  stream.spill!.read(position, bytes, byteLength);
  stream.spill!.read(position + byteLength, new Uint8Array(ends.buffer), 4 * count);
  stream.spill!.read(position + byteLength + 4 * count, new Uint8Array(keys.buffer), 8 * count);
  const loaded: RowBatch = { bytes, ends, keys, count, watermark: 0 };
  stream.batches[0] = loaded;
  stream.loaded = loaded;
  return loaded;
}

/** Appends a batch's rows, ends and keys to the stream's spill. */
function spillBatch(stream: Stream, spill: RowSpill, batch: RowBatch): SpilledBatch {
  const { count, ends, keys } = batch;
  const byteLength = ends[count - 1];
  spill.append(batch.bytes, 0, byteLength);
  spill.append(new Uint8Array(ends.buffer, ends.byteOffset, 4 * count), 0, 4 * count);
  spill.append(new Uint8Array(keys.buffer, keys.byteOffset, 8 * count), 0, 8 * count);
  const spilled = { position: stream.spillEnd, count, byteLength };
  stream.spillEnd += byteLength + 12 * count;
  return spilled;
}
