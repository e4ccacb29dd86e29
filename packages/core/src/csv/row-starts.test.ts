// Row starts against files built row by row (testing/random-csv.ts: each row's offset known as it is appended), cut
// into chunks of every size: quoted cells holding commas, quotes, CR and LF, quotes inside unquoted cells, blank lines,
// CRLF, a last row without a line end. CsvScanner, the explorer's reader, must count the same rows.
import { describe, expect, it } from "vitest";
import { randomCsv, seededRandom } from "../testing/index.js";
import { type CsvCellSink, CsvScanner } from "./csv-scanner.js";
import { ROW_STRIDE, type RowGrammar, RowStarts } from "./row-starts.js";

const encoder = new TextEncoder();

function table(bytes: Uint8Array, grammar: RowGrammar, chunkSizes: () => number) {
  const starts = new RowStarts(grammar);
  for (let at = 0; at < bytes.length; ) {
    const size = chunkSizes();
    starts.push(bytes.subarray(at, at + size));
    at += size;
  }
  return starts.end();
}

const everyStride = (starts: number[]) => starts.filter((_, i) => i % ROW_STRIDE === 0);

describe("RowStarts", () => {
  it("finds every row of a CSV, whatever the chunks, as CsvScanner counts them", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { bytes, starts } = randomCsv(300, seed);
      const random = seededRandom(seed * 7);
      for (const sizes of [() => 1, () => 1 + Math.floor(random() * 9), () => 4096]) {
        const found = table(bytes, "csv", sizes);
        expect(found.rows).toBe(starts.length);
        expect(Array.from(found.starts)).toEqual(everyStride(starts));
      }
      let scanned = 0;
      const sink: CsvCellSink = { cell() {}, row: () => void scanned++ };
      const scanner = new CsvScanner(sink);
      scanner.push(bytes);
      scanner.end();
      expect(scanned).toBe(starts.length);
    }
  });

  it("splits a CR from its line feed across chunks on a blank line and in a row alike", () => {
    const text = 'a,b\r\n\r\n\r\nc,"d\r\n"\r\ne\r';
    const found = table(encoder.encode(text), "csv", () => 1);
    expect(found.rows).toBe(3);
    expect(found.starts[0]).toBe(0);
  });

  it("counts every line of a text file, empty ones too, and a last line without its line feed", () => {
    const lines = ["0.1,0.2", "", "", '"not a quote', "3", ""];
    const text = `${lines.join("\n")}x`;
    const starts: number[] = [];
    let at = 0;
    for (const line of lines) {
      starts.push(at);
      at += line.length + 1;
    }
    const found = table(encoder.encode(text), "lines", () => 2);
    expect(found.rows).toBe(lines.length);
    expect(Array.from(found.starts)).toEqual([0]);
    const many = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? "" : String(i))).join("\n");
    const offsets = [0];
    for (let i = 0; i < many.length; i++) if (many[i] === "\n") offsets.push(i + 1);
    const found200 = table(encoder.encode(`${many}\n`), "lines", () => 5);
    expect(found200.rows).toBe(200);
    expect(Array.from(found200.starts)).toEqual(everyStride(offsets));
  });

  it("has no rows for an empty file or one of blank lines", () => {
    expect(table(new Uint8Array(0), "csv", () => 1).rows).toBe(0);
    expect(table(encoder.encode("\n\r\n\n"), "csv", () => 1).rows).toBe(0);
    expect(table(new Uint8Array(0), "lines", () => 1).rows).toBe(0);
  });
});
