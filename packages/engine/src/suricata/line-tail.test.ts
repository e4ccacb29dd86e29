// LineTail: lines appended by a running writer arrive whole, split UTF-8 included, the last one without a newline too,
// and a line longer than the read buffer, with the lines' offsets; lines read back by offset.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { LineTail, readLinesAt } from "./line-tail.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-tail-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("delivers complete lines as the file grows", async () => {
  const file = path.join(dir, "eve.json");
  const lines: [string, number][] = [];
  const tail = new LineTail(file, (bytes, start, end, number) =>
    lines.push([bytes.toString("utf8", start, end), number]),
  );
  await tail.poll();
  expect(lines).toEqual([]);
  const euro = Buffer.from("€");
  fs.writeFileSync(file, Buffer.concat([Buffer.from("one\ntw"), euro.subarray(0, 1)]));
  await tail.poll();
  expect(lines).toEqual([["one", 1]]);
  fs.appendFileSync(file, Buffer.concat([euro.subarray(1), Buffer.from("o\nthree")]));
  await tail.poll();
  expect(lines).toEqual([
    ["one", 1],
    ["tw€o", 2],
  ]);
  await tail.finish();
  expect(lines.at(-1)).toEqual(["three", 3]);
});

it("delivers a line longer than its read buffer", async () => {
  const file = path.join(dir, "long.json");
  const long = "x".repeat(9 * 1024 * 1024);
  fs.writeFileSync(file, `a\n${long}\nb\n`);
  const lines: [number, number][] = [];
  const tail = new LineTail(file, (_bytes, start, end, _number, offset) => lines.push([end - start, offset]));
  await tail.finish();
  expect(lines).toEqual([
    [1, 0],
    [long.length, 2],
    [1, long.length + 3],
  ]);
});

it("reads the lines at given offsets, one longer than its first read", async () => {
  const file = path.join(dir, "offsets.json");
  const long = "y".repeat(100_000);
  fs.writeFileSync(file, `first\n${long}\nthird`);
  const got: string[] = [];
  await readLinesAt(file, [0, 6, long.length + 7], (bytes, start, end) => got.push(bytes.toString("utf8", start, end)));
  expect(got).toEqual(["first", long, "third"]);
});
