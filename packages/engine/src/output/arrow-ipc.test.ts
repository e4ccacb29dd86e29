// The hand-written Arrow IPC streams against two independent readers: apache-arrow (JavaScript) reads every value
// back, and parquet-wasm (arrow-rs, which verifies the FlatBuffers) takes the stream and gives back the same table.
import type { Column, ColumnValues } from "@tracemill/core";
import { tableFromIPC } from "apache-arrow";
import * as parquet from "parquet-wasm";
import { describe, expect, it } from "vitest";
import { ArrowIpcWriter } from "./arrow-ipc.js";

/** One column of each type, repeated with long names so that the schema outgrows the writer's first buffer. */
const TYPES = ["int", "real", "time", "string", "list"] as const;
const columns: Column[] = Array.from({ length: 40 }, (_, i) => ({
  name: `column_${i}_${"x".repeat(i)}`,
  type: TYPES[i % TYPES.length],
}));

/** Batch `n` of `rows` rows: values that differ by row, batch and column, of both signs, strings of any length. */
function batch(n: number, rows: number): { values: ColumnValues[]; expected: unknown[][] } {
  const expected: unknown[][] = Array.from({ length: rows }, () => []);
  const values = columns.map((column, c): ColumnValues => {
    const at = (r: number) => (r + 1) * (c + 1) * (n + 1);
    if (column.type === "real") {
      const reals = Float64Array.from({ length: rows }, (_, r) => at(r) / 3);
      reals.forEach((v, r) => {
        expected[r].push(v);
      });
      return { type: "real", values: reals };
    }
    if (column.type === "string") {
      const texts = Array.from({ length: rows }, (_, r) => "é".repeat(at(r) % 7) + String(at(r)));
      const bytes = new TextEncoder().encode(texts.join(""));
      const offsets = new Int32Array(rows + 1);
      texts.forEach((t, r) => {
        offsets[r + 1] = offsets[r] + new TextEncoder().encode(t).length;
        expected[r].push(t);
      });
      return { type: "string", offsets, bytes };
    }
    if (column.type === "list") {
      const lists = Array.from({ length: rows }, (_, r) =>
        Array.from({ length: at(r) % 4 }, (_, i) => BigInt(i - at(r))),
      );
      const offsets = new Int32Array(rows + 1);
      lists.forEach((l, r) => {
        offsets[r + 1] = offsets[r] + l.length;
        expected[r].push(l);
      });
      return { type: "list", offsets, values: BigInt64Array.from(lists.flat()) };
    }
    const ints = BigInt64Array.from({ length: rows }, (_, r) => BigInt(at(r)) * (r % 2 ? -(10n ** 12n) : 1n));
    ints.forEach((v, r) => {
      expected[r].push(v);
    });
    return column.type === "int" ? { type: "int", values: ints } : { type: "time", values: ints };
  });
  return { values, expected };
}

/** The rows of an IPC stream as apache-arrow reads them: bigints, numbers, strings, lists of bigints. */
function rowsOf(stream: Uint8Array): unknown[][] {
  const table = tableFromIPC(stream);
  expect(table.schema.fields.map((f) => f.name)).toEqual(columns.map((c) => c.name));
  expect(table.schema.fields.every((f) => !f.nullable)).toBe(true);
  // Times as their stored int64 nanoseconds (apache-arrow's rows give milliseconds as numbers).
  const times = new Map(
    columns
      .filter((column) => column.type === "time")
      .map((column) => [
        column.name,
        table
          .getChild(column.name)!
          .data.flatMap((d) => [...(d.values as BigInt64Array).subarray(d.offset, d.offset + d.length)]),
      ]),
  );
  return table.toArray().map((row, r) =>
    columns.map((column) => {
      if (column.type === "time") return times.get(column.name)![r];
      const value = row[column.name];
      return column.type === "list" ? [...value] : value;
    }),
  );
}

describe("Arrow IPC streams", () => {
  it("are read back by apache-arrow, batch after batch from the same buffer, with the types declared", () => {
    const writer = new ArrowIpcWriter(columns);
    for (const [n, rows] of [
      [0, 3],
      [1, 1000],
      [2, 1],
      [3, 0],
    ]) {
      const { values, expected } = batch(n, rows);
      const stream = writer.encode(values, rows);
      expect(rowsOf(stream)).toEqual(expected);
      const types = tableFromIPC(stream).schema.fields.map((f) => String(f.type));
      expect(types.slice(0, 5)).toEqual(["Int64", "Float64", "Timestamp<NANOSECOND, UTC>", "Utf8", "List<Int64>"]);
    }
  });

  it("are taken by parquet-wasm, which gives back the same table", () => {
    const writer = new ArrowIpcWriter(columns);
    for (const [n, rows] of [
      [0, 5],
      [1, 700],
    ]) {
      const { values, expected } = batch(n, rows);
      const table = parquet.Table.fromIPCStream(writer.encode(values, rows));
      expect(rowsOf(table.intoIPCStream())).toEqual(expected);
    }
  });
});
