// Rows put in any order come out in sequence order, across arena chunks, and nothing stays buffered.
import { describe, expect, it } from "vitest";
import { OrderedRows } from "./ordered-rows.js";
import { RowBuilder } from "./row-builder.js";

function shuffled(count: number, seed: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  let state = seed;
  for (let i = count - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

describe("OrderedRows", () => {
  it("passes rows on in number order whatever order they were put in", () => {
    const received: string[] = [];
    const rows = new OrderedRows((bytes, start, end) => {
      received.push(String.fromCharCode(...bytes.subarray(start, end)));
    });
    const count = 20_000;
    const row = new Uint8Array(200);
    for (const seq of shuffled(count, 7)) {
      const text = `${seq}`.padEnd(120 + (seq % 50), "x");
      for (let i = 0; i < text.length; i++) row[i] = text.charCodeAt(i);
      rows.put(seq, row, text.length);
    }
    const expected = Array.from({ length: count }, (_, i) => `${i}`.padEnd(120 + (i % 50), "x"));
    expect(received.join("")).toBe(expected.join(""));
    expect(rows.waiting).toBe(0);
    expect(rows.bufferedBytes).toBe(0);
    expect(rows.expected).toBe(count);
  });

  it("holds only rows waiting for an earlier one", () => {
    let written = 0;
    const rows = new OrderedRows(() => {
      written++;
    });
    const row = new Uint8Array(10);
    rows.put(1, row, 10);
    rows.put(2, row, 10);
    expect(written).toBe(0);
    expect(rows.waiting).toBe(2);
    expect(rows.bufferedBytes).toBe(20);
    rows.put(0, row, 10);
    // Row 0 as it comes, then rows 1 and 2, which follow each other in the arena, in one piece.
    expect(written).toBe(2);
    expect(rows.waiting).toBe(0);
    expect(() => rows.put(1, row, 10)).toThrow(RangeError);
  });

  it("passes rows that wait side by side in the arena on in one piece, and splits pieces where chunks end", () => {
    const pieces: string[] = [];
    const rows = new OrderedRows((bytes, start, end) => {
      pieces.push(Array.from(bytes.subarray(start, end), (code) => String.fromCharCode(code)).join(""));
    });
    const row = new Uint8Array(60_000);
    const text = (seq: number) => `${seq};`.padEnd(seq % 2 === 0 ? 10 : 50_000, String.fromCharCode(97 + (seq % 26)));
    const put = (seq: number) => {
      const value = text(seq);
      for (let i = 0; i < value.length; i++) row[i] = value.charCodeAt(i);
      rows.put(seq, row, value.length);
    };
    // 1…60 wait in start order (about 1.5 MB: they fill a 1 MiB chunk and go on in the next), 0 then releases them.
    for (let seq = 1; seq <= 60; seq++) put(seq);
    put(0);
    expect(pieces.join("")).toBe(Array.from({ length: 61 }, (_, seq) => text(seq)).join(""));
    expect(pieces.length).toBe(3);
    expect(rows.waiting).toBe(0);
  });

  it("keeps rows intact while arena chunks are released and reused and the index wraps and grows", () => {
    // Rows disordered within windows of up to 4000 (about 2 MB waiting): chunks fill, empty, go back to the spares
    // and are reused many times over, and pieces of several rows form across all of it.
    const count = 30_000;
    let received = "";
    let calls = 0;
    const rows = new OrderedRows((bytes, start, end) => {
      calls++;
      received += String.fromCharCode(...bytes.subarray(start, end));
    });
    const text = (seq: number) => `${seq}:`.padEnd(1 + ((seq * 7919) % 1000), String.fromCharCode(97 + (seq % 26)));
    const row = new Uint8Array(1100);
    const order: number[] = [];
    for (let from = 0, window = 1; from < count; from += window, window = 1 + ((window * 37 + 11) % 4000)) {
      const size = Math.min(window, count - from);
      for (const i of shuffled(size, from + 1)) order.push(from + i);
    }
    for (const seq of order) {
      const value = text(seq);
      for (let i = 0; i < value.length; i++) row[i] = value.charCodeAt(i);
      rows.put(seq, row, value.length);
    }
    let expected = "";
    for (let seq = 0; seq < count; seq++) expected += text(seq);
    expect(received.length).toBe(expected.length);
    expect(received === expected).toBe(true);
    expect(calls).toBeLessThan(count);
    expect(rows.waiting).toBe(0);
    expect(rows.bufferedBytes).toBe(0);
  });

  it("files each row from the buffer and length of its own put, when buffers alternate or a row is long", () => {
    // The views of a caller's buffer are kept by length: a row of the same length from another buffer (a row
    // builder that grew, or two writers in turn) must still be copied from its own buffer.
    let received = "";
    const rows = new OrderedRows((bytes, start, end) => {
      received += String.fromCharCode(...bytes.subarray(start, end));
    });
    const buffers = [new Uint8Array(8000), new Uint8Array(8000), new Uint8Array(8000)];
    const text = (seq: number) => `${seq}|`.padEnd(seq % 5 === 0 ? 5000 : 40, String.fromCharCode(97 + (seq % 26)));
    const count = 300;
    for (let seq = count - 1; seq >= 0; seq--) {
      const value = text(seq);
      const buffer = buffers[seq % 3];
      buffer.fill(33);
      for (let i = 0; i < value.length; i++) buffer[i] = value.charCodeAt(i);
      rows.put(seq, buffer, value.length);
      // What the caller writes next into its buffer does not change a row already filed.
      buffer.fill(63);
    }
    expect(received).toBe(Array.from({ length: count }, (_, seq) => text(seq)).join(""));
  });

  it("files rows from a RowBuilder whose buffer grows between rows of lengths it filed before", () => {
    let received = "";
    const rows = new OrderedRows((bytes, start, end) => {
      received += String.fromCharCode(...bytes.subarray(start, end));
    });
    const row = new RowBuilder();
    const text = (seq: number) =>
      seq === 100 ? "y".repeat(9000) : `${seq}`.padEnd(20 + (seq % 7), "abcdefg"[seq % 7]);
    const count = 200;
    const first = row.bytes;
    // Every row but the last waits (put in reverse), so each is filed through the cached views.
    for (let seq = count - 1; seq >= 0; seq--) {
      row.start();
      row.text(text(seq));
      row.end();
      rows.put(seq, row.bytes, row.length);
    }
    expect(row.bytes).not.toBe(first);
    expect(received).toBe(Array.from({ length: count }, (_, seq) => `${text(seq)}\n`).join(""));
  });

  it("files a waiting row longer than a chunk when spare chunks are at hand", () => {
    let received = 0;
    const rows = new OrderedRows((_bytes, start, end) => {
      received += end - start;
    });
    const big = new Uint8Array(1_500_000).fill(98);
    // Row 1 waits and its chunk goes back to the spares once row 0 releases it: the next chunk could be a spare.
    rows.put(1, big, 10);
    rows.put(0, big, 10);
    rows.put(3, big, 1_500_000);
    rows.put(2, big, 10);
    expect(received).toBe(1_500_030);
  });
});
