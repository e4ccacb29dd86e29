// The in-memory spill through the shared suite, and how OrderedRows uses a spill: when, how much, and its failures.
import { describe, expect, it } from "vitest";
import { describeRowSpill } from "../testing/row-spill-suite.js";
import { OrderedRows } from "./ordered-rows.js";
import { MemoryRowSpill, type RowSpill } from "./row-spill.js";

describeRowSpill("in memory", () => ({ spill: new MemoryRowSpill(), close() {} }));

describe("OrderedRows with a spill", () => {
  const row = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

  it("spills every waiting row once they exceed the memory allowed, and reads them back when due", () => {
    const spill = new MemoryRowSpill();
    let out = "";
    const rows = new OrderedRows((bytes, start, end) => (out += String.fromCharCode(...bytes.subarray(start, end))), {
      spill,
      memoryBytes: 25,
    });
    rows.put(1, row("one|"), 4);
    rows.put(3, row("three|"), 6);
    rows.put(2, row("two|"), 4);
    expect(rows.bufferedBytes).toBe(14);
    expect(spill.size).toBe(0);
    rows.put(5, row("fifteen-bytes!|"), 15);
    // 29 bytes waiting: all of them go to the spill in number order, then their 4 lengths, and memory is empty.
    expect(spill.size).toBe(29 + 4 * 4);
    expect(rows.bufferedBytes).toBe(0);
    expect(rows.spilledBytes).toBe(29);
    expect(rows.waiting).toBe(4);
    rows.put(4, row("four|"), 5);
    expect(rows.bufferedBytes).toBe(5);
    rows.put(0, row("zero|"), 5);
    expect(out).toBe("zero|one|two|three|four|fifteen-bytes!|");
    expect(rows.waiting).toBe(0);
    expect(rows.bufferedBytes).toBe(0);
  });

  it("keeps every arena chunk a spill empties for the rows that follow; without a spill only a few", () => {
    const MiB = 2 ** 20;
    const row = new Uint8Array(100_000).fill(97);
    // Ten rows fill a 1 MiB chunk: 86 rows waiting take nine chunks and exceed the limit, so they are spilled.
    const spilled = new OrderedRows(() => {}, { spill: new MemoryRowSpill(), memoryBytes: 8_500_000 });
    for (let seq = 1; seq <= 86; seq++) spilled.put(seq, row, row.length);
    expect(spilled.bufferedBytes).toBe(0);
    // The nine chunks and the spill's staging chunk are all kept.
    expect(spilled.spareBytes).toBe(10 * MiB);
    for (let seq = 87; seq <= 136; seq++) spilled.put(seq, row, row.length);
    // The next 50 rows went into five of them.
    expect(spilled.bufferedBytes).toBe(5_000_000);
    expect(spilled.spareBytes).toBe(5 * MiB);
    const unbounded = new OrderedRows(() => {});
    for (let seq = 1; seq <= 100; seq++) unbounded.put(seq, row, row.length);
    unbounded.put(0, row, row.length);
    expect(unbounded.waiting).toBe(0);
    expect(unbounded.spareBytes).toBe(4 * MiB);
  });

  it("reads a run's lengths back in several pieces, and reuses the memory entries of rows passed on", () => {
    // 50 000 rows of 3–13 bytes with row 0 put last: one run of about 42 000 rows (its lengths take three reads of
    // 16 384) and the rest in memory; then 10 000 more out of order, in the memory entries the drain freed.
    const spill = new MemoryRowSpill();
    const text = (seq: number) => `${seq.toString(36)}${"x".repeat(seq % 9)};`;
    let out = "";
    const rows = new OrderedRows((bytes, start, end) => (out += Buffer.from(bytes.subarray(start, end)).toString()), {
      spill,
      memoryBytes: 400_000,
    });
    const put = (seq: number) => {
      const bytes = Buffer.from(text(seq));
      rows.put(seq, bytes, bytes.length);
    };
    for (let seq = 1; seq < 50_000; seq++) put(seq);
    expect(rows.spilledBytes).toBeGreaterThan(0);
    expect(rows.waiting).toBe(49_999);
    put(0);
    for (let seq = 50_000; seq < 60_000; seq += 2) put(seq + 1);
    for (let seq = 50_000; seq < 60_000; seq += 2) put(seq);
    let expected = "";
    for (let seq = 0; seq < 60_000; seq++) expected += text(seq);
    expect(out === expected).toBe(true);
    expect(rows.waiting).toBe(0);
    expect(rows.bufferedBytes).toBe(0);
  });

  it("keeps every row in memory without a spill, whatever the limit", () => {
    const rows = new OrderedRows(() => {}, { memoryBytes: 4 });
    rows.put(1, row("waiting"), 7);
    rows.put(2, row("waiting"), 7);
    expect(rows.bufferedBytes).toBe(14);
  });

  it("lets a failing spill's error through put", () => {
    const full: RowSpill = {
      append() {
        throw new Error("no space left");
      },
      read() {},
    };
    const rows = new OrderedRows(() => {}, { spill: full, memoryBytes: 4 });
    expect(() => rows.put(1, row("waiting"), 7)).toThrow("no space left");
  });
});
