// RowMerge writes rows in key order across streams, holding each row until every stream's watermark is past it.
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

  it("refuses a watermark that goes back", () => {
    const merge = new RowMerge(
      1,
      () => {},
      () => {},
    );
    merge.add(0, batch([], 5));
    expect(() => merge.add(0, batch([], 4))).toThrow(RangeError);
  });
});
