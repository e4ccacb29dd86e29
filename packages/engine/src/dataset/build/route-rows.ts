// Sends each stored row to its split's Parquet file, and takes the audit's sample of the train and test splits on the
// way: at most `sampleRows` rows of each, chosen with the spec's seed (Knuth's selection sampling: exactly that many,
// in row order, every row equally likely).
import { type Column, SeededRandom } from "@tracemill/core";
import type { ParquetSink } from "../../output/index.js";
import { CellColumns } from "../rows/cell-columns.js";
import type { RowStore } from "../rows/row-store.js";

/** A split's sample for the audit: its rows' classes and the audited columns' values. */
export interface AuditSample {
  classId: Uint32Array;
  columns: (Float64Array | string[])[];
}

export interface RouteOptions {
  schema: readonly Column[];
  /** Split index per row. */
  split: Uint8Array;
  classId: Uint32Array;
  files: readonly ParquetSink[];
  /** The splits whose sample the audit takes (train, test), with their row counts. */
  sampled: readonly { split: number; rows: number }[];
  /** Indexes into `schema` of the audited columns. */
  audited: readonly number[];
  sampleRows: number;
  seed: number;
}

/** Routes every row; returns the samples in the order of `sampled`. */
export async function routeRows(store: RowStore, options: RouteOptions): Promise<AuditSample[]> {
  const cells = new CellColumns(options.schema.map((c) => c.type));
  const { schema, audited } = options;
  // The audited columns by kind, so that the sampling loop does one thing per column: numbers (a time is its
  // seconds and nanoseconds), then texts.
  const numbers = audited.filter((c) => schema[c].type !== "string");
  const isTime = Uint8Array.from(numbers, (c) => (schema[c].type === "time" ? 1 : 0));
  const texts = audited.filter((c) => schema[c].type === "string");
  const samples = options.sampled.map(({ rows }, i) => {
    const size = Math.min(rows, options.sampleRows);
    return {
      size,
      rows,
      seen: 0,
      taken: 0,
      random: new SeededRandom(options.seed, 1 + i),
      classId: new Uint32Array(size),
      numbers: numbers.map(() => new Float64Array(size)),
      texts: texts.map(() => new Array<string>(size).fill("")),
    };
  });
  const sampleOf = new Int8Array(256).fill(-1);
  options.sampled.forEach(({ split }, i) => {
    sampleOf[split] = i;
  });
  const offsets = cells.offsets;
  await store.forEach((bytes, start, end, row) => {
    const split = options.split[row];
    options.files[split].write(bytes, start, end);
    const which = sampleOf[split];
    if (which < 0) return;
    const sample = samples[which];
    // Selection sampling: take this row with probability (still needed) / (still to come).
    const take = sample.random.below(sample.rows - sample.seen) < sample.size - sample.taken;
    sample.seen++;
    if (!take) return;
    cells.measure(bytes, start);
    const at = sample.taken++;
    sample.classId[at] = options.classId[row];
    const words = cells.wordsFor(bytes);
    const base = bytes.byteOffset;
    for (let i = 0; i < numbers.length; i++) {
      const word = (base + offsets[numbers[i]]) >>> 3;
      sample.numbers[i][at] = isTime[i] === 1 ? words[word] + words[word + 1] / 1e9 : words[word];
    }
    for (let i = 0; i < texts.length; i++) sample.texts[i][at] = cells.text(bytes, texts[i]);
  }, caughtUp(options.files));
  // Back in the audited columns' order.
  return samples.map((sample) => ({
    classId: sample.classId,
    columns: audited.map((c) =>
      schema[c].type === "string" ? sample.texts[texts.indexOf(c)] : sample.numbers[numbers.indexOf(c)],
    ),
  }));
}

/** Writes every row again without the columns `keep` leaves out, to each split's variant file. */
export async function routeKept(
  store: RowStore,
  options: { schema: readonly Column[]; split: Uint8Array; files: readonly ParquetSink[]; keep: Uint8Array },
): Promise<void> {
  const cells = new CellColumns(options.schema.map((c) => c.type));
  let out = new Uint8Array(1 << 16);
  await store.forEach((bytes, start, end, row) => {
    if (out.length < end - start) out = new Uint8Array(2 * (end - start));
    cells.measure(bytes, start);
    const length = cells.copy(bytes, options.keep, out, 0);
    options.files[options.split[row]].write(out, 0, length);
  }, caughtUp(options.files));
}

/** Waits until every file's writer has taken its batches. */
function caughtUp(files: readonly ParquetSink[]): () => Promise<void> {
  return async () => {
    for (const file of files) await file.caughtUp();
  };
}
