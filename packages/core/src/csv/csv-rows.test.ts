// A CSV's rows as its readers take them (the explorer's header, the gallery's manifest and CSV rows, the IPT plots'
// sessions): the header's cells, then each row's chosen cells, with quoted cells, CRLF, blank lines, a short row and
// a last row without its line end, whatever the chunks; and rows read from any start the index keeps are the rows
// the file was written with (testing/random-csv.ts), so a reader that seeks agrees with one that reads from the start.
import { describe, expect, it } from "vitest";
import { decodeUtf8, encodeUtf8 } from "../capture/utf8.js";
import { randomCsv, seededRandom } from "../testing/index.js";
import { HeaderThenRows, KeptCells } from "./csv-rows.js";
import { type CsvCellSink, CsvScanner } from "./csv-scanner.js";
import { ROW_STRIDE, RowStarts } from "./row-starts.js";

const text = (bytes: Uint8Array, start: number, end: number) => decodeUtf8(bytes.subarray(start, end));

/** Pushes `bytes` through `sink` in chunks of `size`, one buffer filled again for each, as a file reader's is. */
function scan(bytes: Uint8Array, sink: CsvCellSink, size: () => number): void {
  const scanner = new CsvScanner(sink);
  const buffer = new Uint8Array(bytes.length || 1);
  for (let at = 0; at < bytes.length; ) {
    const piece = bytes.subarray(at, at + size());
    buffer.set(piece);
    scanner.push(buffer.subarray(0, piece.length));
    at += piece.length;
  }
  scanner.end();
}

/** The header (with its line) and the rows (kept cells, with their lines) of `csv` read in chunks of `size`. */
function read(csv: string, keep: number[], size: number) {
  const headers: { cells: string[]; line: number }[] = [];
  const rows: { cells: string[]; line: number }[] = [];
  const sink = new HeaderThenRows(
    text,
    (cells, line) => headers.push({ cells, line }),
    new KeptCells(keep, text, (cells, line) => rows.push({ cells, line })),
  );
  scan(encodeUtf8(csv), sink, () => size);
  return { headers, rows };
}

const CSV = [
  '"id","name, full",note,extra\r',
  '1,"say ""hi""",x',
  "",
  '2,"two\nlines",y,z\r',
  "3",
  '4,"cr\r\nlf",last',
].join("\n");

describe("a CSV's rows as text", () => {
  it("gives the header, then each row's kept cells in the order asked, whatever the chunks", () => {
    for (let size = 1; size <= CSV.length; size++) {
      expect(read(CSV, [3, 0, 1], size)).toEqual({
        headers: [{ cells: ["id", "name, full", "note", "extra"], line: 1 }],
        rows: [
          { cells: ["", "1", 'say "hi"'], line: 2 },
          { cells: ["z", "2", "two\nlines"], line: 4 },
          { cells: ["", "3", ""], line: 6 },
          { cells: ["", "4", "cr\r\nlf"], line: 7 },
        ],
      });
    }
  });

  it("reads a last cell whose quote never closes, and a file of a header alone or of nothing", () => {
    expect(read('a,b\n1,"open\n2,3', [0, 1], 2).rows).toEqual([{ cells: ["1", "open\n2,3"], line: 2 }]);
    expect(read("a,b\r\n", [0], 1)).toEqual({ headers: [{ cells: ["a", "b"], line: 1 }], rows: [] });
    expect(read("\n\r\n", [0], 1)).toEqual({ headers: [], rows: [] });
    expect(read("", [0], 1)).toEqual({ headers: [], rows: [] });
  });

  it("reads from any row start the index keeps the rows the file was written with", () => {
    const random = seededRandom(5);
    const keep = [0, 1, 2, 3];
    const padded = (cells: string[]) => keep.map((column) => cells[column] ?? "");
    for (let seed = 1; seed <= 20; seed++) {
      const file = randomCsv(300, seed);
      const starts = new RowStarts("csv");
      starts.push(file.bytes);
      const table = starts.end();
      expect(table.rows).toBe(file.rows.length);

      let header: string[] = [];
      const rows: string[][] = [];
      const whole = new HeaderThenRows(
        text,
        (cells) => {
          header = cells;
        },
        new KeptCells(keep, text, (cells) => rows.push(cells)),
      );
      scan(file.bytes, whole, () => 1 + Math.floor(random() * 40));
      expect(header).toEqual(file.rows[0]);
      expect(rows).toEqual(file.rows.slice(1).map(padded));

      for (const [slot, offset] of table.starts.entries()) {
        const from: string[][] = [];
        scan(
          file.bytes.subarray(offset),
          new KeptCells(keep, text, (cells) => from.push(cells)),
          () => 1 + Math.floor(random() * 40),
        );
        expect(from, `seed ${seed}, row ${slot * ROW_STRIDE}`).toEqual(file.rows.slice(slot * ROW_STRIDE).map(padded));
      }
    }
  });
});
