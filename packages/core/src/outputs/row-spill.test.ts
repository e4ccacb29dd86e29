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
    // 29 bytes waiting: all of them go to the spill in number order, and memory is empty.
    expect(spill.size).toBe(29);
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
