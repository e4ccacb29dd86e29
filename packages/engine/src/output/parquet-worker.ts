// The worker of a threaded Parquet file (parquet-thread.ts): a ParquetFile fed from the ring of shared buffers, one
// command at a time in order. A slot is given back as soon as its rows are parsed into the writer's columns.
import { parentPort, workerData } from "node:worker_threads";
import { TracemillError } from "@tracemill/core";
import { ParquetFile } from "./parquet-file.js";
import {
  ENDED,
  FAILED,
  type FromWorker,
  type ParquetWorkerData,
  SLOTS,
  type ToWorker,
} from "./parquet-thread-protocol.js";

const data = workerData as ParquetWorkerData;
const port = parentPort as NonNullable<typeof parentPort>;
const state = new Int32Array(data.state);
const slots = data.slots.map((buffer) => new Uint8Array(buffer));
const send = (message: FromWorker) => port.postMessage(message);
let file: ParquetFile | null = null;
let failed = false;

/** Frees a slot and wakes the producer waiting for it. */
function release(slot: number): void {
  Atomics.store(state, slot, 0);
  Atomics.notify(state, slot);
}

function fail(error: unknown): void {
  failed = true;
  Atomics.store(state, FAILED, 1);
  for (let slot = 0; slot < SLOTS; slot++) release(slot);
  Atomics.notify(state, FAILED);
  const known = error instanceof TracemillError;
  send({
    type: "failed",
    code: known ? error.code : null,
    message: error instanceof Error ? error.message : String(error),
    context: known ? { ...error.context } : {},
  });
}

async function handle(message: ToWorker): Promise<void> {
  if (message.type === "slot") {
    if (!failed && file !== null) file.write(slots[message.slot], 0, Atomics.load(state, message.slot));
    release(message.slot);
    if (!failed && file !== null) await file.caughtUp();
  } else if (message.type === "rows") {
    if (failed || file === null) return;
    file.write(message.bytes, 0, message.length);
    await file.caughtUp();
  } else if (message.type === "commit") {
    if (failed || file === null) return;
    await file.commit(message.summary);
    send({ type: "done" });
    port.close();
  } else {
    await file?.discard();
    send({ type: "done" });
    port.close();
  }
}

// The producer may wait for a slot: it must learn that this thread ends, however it ends.
process.on("exit", () => {
  Atomics.store(state, ENDED, 1);
  Atomics.notify(state, FAILED);
  for (let slot = 0; slot < SLOTS; slot++) Atomics.notify(state, slot);
});

let queue: Promise<void> = Promise.resolve();
port.on("message", (message: ToWorker) => {
  queue = queue
    .then(() => handle(message))
    .catch((error: unknown) => {
      if (!failed) fail(error);
      if (message.type === "commit" || message.type === "discard") {
        void file?.discard().catch(() => undefined);
        port.close();
      }
    });
});

try {
  file = await ParquetFile.open(data.path, data.schema, data.options);
  send({ type: "ready" });
} catch (error) {
  fail(error);
  port.close();
}
