// RowMerge writes rows in key order across streams, holding each row until every stream's watermark is past it.
import { MemoryRowSpill } from "@tracemill/core";
import { describe, expect, it } from "vitest";
import { RowMerge } from "./row-merge.js";
import type { RowBatch } from "./shard-protocol.js";

/** A batch of one-line rows named by their keys ("k7\n"). */
function batch(keys: number[], watermark: number): RowBatch {
  const text = keys.map((key) => `k${key}\n`).join("");
  const ends = new Int32Array(keys.length);
  let end = 0;
  keys.forEach((key, i) => {
    end += `k${key}\n`.length;
    ends[i] = end;
  });
  return { bytes: new TextEncoder().encode(text), ends, keys: new Float64Array(keys), count: keys.length, watermark };
}

describe("RowMerge", () => {
  it("writes each row once no stream can still send a smaller key, and recycles consumed batches", () => {
    let out = "";
    const recycled: number[] = [];
    const merge = new RowMerge(
      2,
      (bytes, start, end) => {
        out += new TextDecoder().decode(bytes.subarray(start, end));
      },
      (worker) => recycled.push(worker),
    );
    merge.add(0, batch([0, 2, 5], 9));
    // Stream 1 has said nothing yet: its watermark is 0, so nothing can be written.
    expect(out).toBe("");
    merge.add(1, batch([1, 3], 4));
    expect(out).toBe("k0\nk1\nk2\nk3\n");
    expect(merge.waiting).toBe(1);
    merge.add(1, batch([], 6));
    expect(out).toBe("k0\nk1\nk2\nk3\nk5\n");
    expect(recycled).toEqual([1, 1, 0]);
    merge.add(1, batch([6, 7, 8], Number.POSITIVE_INFINITY));
    merge.add(0, batch([9, 10], Number.POSITIVE_INFINITY));
    expect(out).toBe("k0\nk1\nk2\nk3\nk5\nk6\nk7\nk8\nk9\nk10\n");
    expect(merge.rows).toBe(10);
    expect(merge.waiting).toBe(0);
  });

  it("holds at most `heldBatches` of one stream's batches, spilling later ones at once even under the memory limit", () => {
    let out = "";
    const recycled: number[] = [];
    const spills = [new MemoryRowSpill(), new MemoryRowSpill()];
    const merge = new RowMerge(
      2,
      (bytes, start, end) => {
        out += new TextDecoder().decode(bytes.subarray(start, end));
      },
      (worker) => recycled.push(worker),
      { spills, memoryBytes: 1 << 20, heldBatches: 3 },
    );
    // Stream 1 says nothing, so stream 0's five batches must wait: three held, the last two spilled and given back.
    for (let i = 0; i < 5; i++) merge.add(0, batch([2 * i, 2 * i + 1], 2 * i + 2));
    expect(out).toBe("");
    expect(recycled).toEqual([0, 0]);
    expect(spills[0].size).toBeGreaterThan(0);
    expect(spills[1].size).toBe(0);
    merge.add(1, batch([], Number.POSITIVE_INFINITY));
    expect(out).toBe("k0\nk1\nk2\nk3\nk4\nk5\nk6\nk7\nk8\nk9\n");
    // The three held batches go back once written (the spilled ones went back already), and stream 1's empty one.
    expect(recycled.filter((worker) => worker === 0)).toHaveLength(5);
    expect(merge.bufferedBytes).toBe(0);
  });

  it("refuses a watermark that goes back", () => {
    const merge = new RowMerge(
      1,
      () => {},
      () => {},
    );
    merge.add(0, batch([], 5));
    expect(() => merge.add(0, batch([], 4))).toThrow(RangeError);
  });

  it("writes the same rows when held batches go to the streams' spills, and recycles each batch once", () => {
    // 3000 keys dealt to 3 workers at random; each sends its keys in batches of 1-40 rows, the workers in turn at
    // random, each batch's watermark its next key. Every row must come out in key order, spilled or not.
    let state = 99;
    const random = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const keys: number[][] = [[], [], []];
    for (let key = 0; key < 3000; key++) keys[random(3)].push(key);
    const sends: [number, RowBatch][] = [];
    const queues = keys.map((own, worker) => {
      const batches: [number, RowBatch][] = [];
      for (let at = 0; at < own.length; ) {
        const size = Math.min(own.length - at, 1 + random(40));
        batches.push([worker, batch(own.slice(at, at + size), own[at + size] ?? Number.POSITIVE_INFINITY)]);
        at += size;
      }
      batches.push([worker, batch([], Number.POSITIVE_INFINITY)]);
      return batches;
    });
    while (queues.some((queue) => queue.length > 0)) {
      const queue = queues[random(3)];
      if (queue.length > 0) sends.push(queue.shift()!);
    }
    const merged = (spills: MemoryRowSpill[] | null) => {
      let out = "";
      let recycled = 0;
      const merge = new RowMerge(
        3,
        (bytes, start, end) => {
          out += new TextDecoder().decode(bytes.subarray(start, end));
        },
        () => recycled++,
        spills === null ? undefined : { spills, memoryBytes: 200 },
      );
      for (const [worker, sent] of sends) {
        merge.add(worker, sent);
        if (spills !== null) expect(merge.bufferedBytes).toBeLessThanOrEqual(200);
      }
      expect(recycled).toBe(sends.length);
      expect(merge.waiting).toBe(0);
      return out;
    };
    const spills = [new MemoryRowSpill(), new MemoryRowSpill(), new MemoryRowSpill()];
    const expected = Array.from({ length: 3000 }, (_, key) => `k${key}\n`).join("");
    expect(merged(null)).toBe(expected);
    expect(merged(spills)).toBe(expected);
    expect(spills.reduce((sum, spill) => sum + spill.size, 0)).toBeGreaterThan(10_000);
  });
});
