// A session worker's row outbox: sets of buffers given back are reused, new ones are made only while fewer than the
// limit are out, and a worker with `limit` batches out waits for one to come back (or for a stop).
import { MessageChannel, Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { RowOutbox } from "./shard-outbox.js";
import type { RowBatch } from "./shard-protocol.js";
import { createRingMemory, RingReader, RingWriter } from "./shard-ring.js";

function setup(limit: number) {
  const memory = createRingMemory();
  const writer = new RingWriter(memory, () => {
    throw new Error("the reader failed or stalled");
  });
  const channel = new MessageChannel();
  const sent: RowBatch[] = [];
  const outbox = new RowOutbox((batch) => sent.push({ ...batch }), channel.port2, new RingReader(memory), limit);
  /** What the reading thread does with a consumed batch: posts its buffers back, then counts it returned. */
  const giveBack = (batch: RowBatch) => {
    channel.port1.postMessage(batch);
    writer.returned();
  };
  const row = new TextEncoder().encode("a,b\n");
  const sendOne = (key: number) => {
    outbox.add(row, 0, row.length, key);
    outbox.send(key + 1);
  };
  return { memory, writer, channel, outbox, sent, giveBack, sendOne };
}

describe("RowOutbox", () => {
  it("reuses the buffers given back instead of allocating new ones", () => {
    const { outbox, sent, giveBack, sendOne, channel } = setup(4);
    for (let i = 0; i < 20; i++) {
      sendOne(i);
      giveBack(sent[i]);
    }
    // The first send found nothing given back yet; every later one takes the set returned just before.
    expect(outbox.allocated).toBe(2);
    expect(sent.map((batch) => batch.count)).toEqual(Array(20).fill(1));
    expect(sent.map((batch) => batch.watermark)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    channel.port1.close();
  });

  it("allocates while fewer than the limit are out, and keeps at most `limit` spare sets", () => {
    const { outbox, sent, giveBack, sendOne, channel } = setup(3);
    sendOne(0);
    sendOne(1);
    expect(outbox.allocated).toBe(3);
    // All three out come back at once, plus two more than were sent: at most `limit` are kept as spares.
    for (const batch of [...sent, { ...sent[0] }, { ...sent[1] }]) giveBack(batch);
    sendOne(2);
    sendOne(3);
    sendOne(4);
    // Three spares were kept (the other two dropped): the sends after them need new sets again.
    expect(outbox.allocated).toBe(3);
    sendOne(5);
    expect(outbox.allocated).toBe(4);
    channel.port1.close();
  });

  it("does not wait once told to stop", () => {
    const { writer, outbox, sendOne, channel } = setup(1);
    writer.stop();
    const started = Date.now();
    for (let i = 0; i < 5; i++) sendOne(i);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(outbox.allocated).toBe(6);
    channel.port1.close();
  });

  it("waits for a batch to come back once `limit` are out", async () => {
    const { memory, outbox, sent, sendOne, channel } = setup(2);
    sendOne(0);
    expect(outbox.allocated).toBe(2);
    // Another thread gives the first batch back 200 ms later, as the reading thread would.
    const returner = new Worker(
      `const { workerData } = require("node:worker_threads");
       const control = new Int32Array(workerData.control);
       setTimeout(() => {
         const bytes = new Uint8Array(workerData.length);
         workerData.port.postMessage({ bytes, ends: new Int32Array(4096), keys: new Float64Array(4096), count: 0, watermark: 0 });
         Atomics.add(control, 6, 1);
         Atomics.notify(control, 6);
       }, 200);`,
      {
        eval: true,
        workerData: { control: memory.control, port: channel.port1, length: sent[0].bytes.length },
        transferList: [channel.port1],
      },
    );
    await new Promise((resolve) => returner.once("online", resolve));
    const started = Date.now();
    sendOne(1);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(outbox.allocated).toBe(2);
    await returner.terminate();
  });
});
