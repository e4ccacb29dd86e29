// Merges the session workers' row streams of `extract --threads N` into the single-thread row order: each stream is
// in its worker's start order with merge keys (global addition numbers), and a row is written once no worker can
// still send a row with a smaller key (every worker's watermark is above it).
import type { RowBatch } from "./shard-protocol.js";

/** Where merged rows go; `bytes` is only valid during the call. */
export type MergedRowSink = (bytes: Uint8Array, start: number, end: number) => void;

interface Stream {
  batches: RowBatch[];
  /** Next row of batches[0]. */
  row: number;
  watermark: number;
}

export class RowMerge {
  /** Rows written so far. */
  rows = 0;
  private readonly streams: Stream[];

  /** `recycle` gets every batch once all its rows are written (to give its buffers back to its worker). */
  constructor(
    workers: number,
    private readonly sink: MergedRowSink,
    private readonly recycle: (worker: number, batch: RowBatch) => void,
  ) {
    this.streams = Array.from({ length: workers }, () => ({ batches: [], row: 0, watermark: 0 }));
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
    if (batch.count > 0) stream.batches.push(batch);
    else this.recycle(worker, batch);
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
        const key = stream.batches[0].keys[stream.row];
        if (key < bestKey) {
          otherKey = bestKey;
          bestKey = key;
          best = i;
        } else if (key < otherKey) otherKey = key;
      }
      if (best < 0) return;
      // Rows of the best stream go out in a run until one is not below the next key elsewhere.
      const stream = streams[best];
      const batch = stream.batches[0];
      const { keys, ends, bytes, count } = batch;
      let row = stream.row;
      const first = row;
      while (row < count && keys[row] < otherKey) row++;
      this.sink(bytes, first === 0 ? 0 : ends[first - 1], ends[row - 1]);
      this.rows += row - first;
      if (row === count) {
        stream.batches.shift();
        stream.row = 0;
        this.recycle(best, batch);
      } else {
        stream.row = row;
      }
    }
  }
}
