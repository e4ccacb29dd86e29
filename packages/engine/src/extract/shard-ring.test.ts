// The ring of `extract --threads N`, both sides on one thread: records come out in order across the counters' wrap
// at 2^31 and 2^32, a group of records is seen only once published, and a full ring takes records again once read.
import { describe, expect, it } from "vitest";
import { createRingMemory, F_ADD, RING_RECORDS, RingReader, RingWriter } from "./shard-ring.js";

/** A writer and a reader whose counters start at `start` (an int32), as after that many records. */
function ringAt(start: number) {
  const memory = createRingMemory();
  const writer = new RingWriter(
    memory,
    () => {
      throw new Error("the reader failed or stalled");
    },
    1000,
  );
  const reader = new RingReader(memory);
  Object.assign(writer, { written: start, published: start, readSeen: start });
  Object.assign(reader, { read: start, released: start });
  writer.control[0] = start;
  writer.control[1] = start;
  return { writer, reader };
}

/** Writes `count` records numbered from `from`. */
function write(writer: RingWriter, from: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const w = writer.next();
    writer.numbers[w / 2 + F_ADD] = from + i;
    writer.done();
  }
}

/** Reads every record available now; returns their numbers. */
function readAll(reader: RingReader): number[] {
  const seen: number[] = [];
  for (let available = reader.available(0); available > 0; available = reader.available(0)) {
    for (let i = 0; i < available; i++) {
      seen.push(reader.numbers[reader.offset / 2 + F_ADD]);
      reader.advance();
    }
  }
  return seen;
}

describe("shard ring", () => {
  for (const start of [2 ** 31 - 7000, -7000]) {
    it(`hands over records in order across the counter wrap (counters from ${start})`, () => {
      const { writer, reader } = ringAt(start);
      let next = 0;
      let expected = 0;
      // Bursts of 5 000 (not a multiple of the publish group), 3 ring lengths in all: the writer finds the ring
      // "full" against the read counter it last saw and takes it again from the reader's released count.
      while (next < 3 * RING_RECORDS) {
        write(writer, next, 5000);
        next += 5000;
        // Before publishing, the burst's last partial group of 256 is not seen yet.
        const early = readAll(reader);
        expect(early.length).toBeLessThan(5000);
        expect(early.length).toBeGreaterThan(5000 - 256);
        writer.publish(true);
        const seen = [...early, ...readAll(reader)];
        expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => expected + i));
        expected += 5000;
      }
    });
  }
});
