// LineTail: lines appended by a running writer arrive whole, split UTF-8 included, the last one without a newline too.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { LineTail } from "./line-tail.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-tail-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("delivers complete lines as the file grows", async () => {
  const file = path.join(dir, "eve.json");
  const lines: [string, number][] = [];
  const tail = new LineTail(file, (line, number) => lines.push([line, number]));
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
