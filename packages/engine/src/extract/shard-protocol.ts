// The messages between the reading thread and the session workers of `extract --threads N` (besides the rings).
import type { MessagePort } from "node:worker_threads";
import type { FlowResult } from "./flow-pipeline.js";
import type { RingMemory } from "./shard-ring.js";

/** A worker's `workerData`. */
export interface WorkerSetup {
  ring: RingMemory;
  /** Where the worker sends its row batches (the reading thread also takes them while it waits for ring room). */
  rows: MessagePort;
  /** Where the reading thread gives consumed row buffers back (polled by the worker when it sends rows). */
  returns: MessagePort;
  idleTimeoutNs: number;
  activeTimeoutNs: number;
  /** The worker's temporary file for rows waiting for its own earlier rows, and the memory they may take first. */
  rowSpillPath: string;
  rowMemoryBytes: number;
  /** Tests only: the worker throws at its n-th packet (0: never), or ends its thread there with `failByExit`. */
  failAfterPackets: number;
  failByExit: boolean;
}

/**
 * Rows in the worker's start order: row i is bytes [ends[i - 1] (0 for the first), ends[i]) and starts at merge key
 * keys[i]; every row the worker sends later has a key of at least `watermark`.
 */
export interface RowBatch {
  bytes: Uint8Array<ArrayBuffer>;
  ends: Int32Array<ArrayBuffer>;
  keys: Float64Array<ArrayBuffer>;
  count: number;
  watermark: number;
}

/** The worker's last message: its session counts (after its last RowBatch). */
export interface ShardDone {
  done: true;
  sessions: FlowResult["sessions"];
}

export interface ShardFailure {
  error: string;
  code?: string;
}

/** The worker's first message: its code is loaded. */
export interface ShardReady {
  ready: true;
}

/** What a worker sends on its parent port (its rows go on their own port, WorkerSetup.rows). */
export type ShardMessage = ShardReady | ShardDone | ShardFailure;
