// What the threaded Parquet file (parquet-thread.ts) and its worker (parquet-worker.ts) share: the ring of buffers the
// rows' cells cross in, and the messages.
import type { Column } from "@tracemill/core";
import type { ParquetFileOptions } from "./parquet-file.js";

/**
 * Buffers in the ring, and each one's size: 32 MiB of rows may wait, about a row group's worth, so that the pass goes
 * on while the worker encodes and compresses a row group (a burst) instead of waiting for it.
 */
export const SLOTS = 32;
export const SLOT_BYTES = 1 << 20;
/** In the shared state: each slot's length while it waits for the worker (0 when free), then these flags. */
export const FAILED = SLOTS;
export const ENDED = SLOTS + 1;
export const STATE_WORDS = SLOTS + 2;

export interface ParquetWorkerData {
  path: string;
  schema: readonly Column[];
  options: ParquetFileOptions;
  state: SharedArrayBuffer;
  slots: SharedArrayBuffer[];
}

/** To the worker: a full slot, rows too large for a slot, the end of the file, or its removal. */
export type ToWorker =
  | { type: "slot"; slot: number }
  | { type: "rows"; bytes: Uint8Array; length: number }
  | { type: "commit"; summary: string }
  | { type: "discard" };

/** From the worker: opened, done with the last command, or failed (a TracemillError's parts, or another error's). */
export type FromWorker =
  | { type: "ready" }
  | { type: "done" }
  | { type: "failed"; code: string | null; message: string; context: Record<string, unknown> };
