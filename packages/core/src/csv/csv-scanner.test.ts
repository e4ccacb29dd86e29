// CSV cells as RFC 4180 reads them, whatever the chunks: quoted cells with commas, escaped quotes and line ends,
// CRLF, blank lines, a missing last line end, a byte order mark; the oddities of a broken file named with their line.
import { describe, expect, it } from "vitest";
import { encodeUtf8 } from "../capture/utf8.js";
import { CsvScanner, MAX_CELL_BYTES } from "./csv-scanner.js";

const decoder = { text: (bytes: Uint8Array) => String.fromCharCode(...bytes) };

/** The rows (cells as text, with the line each row starts on) of `text` pushed in chunks of `size` bytes. */
function scan(text: string, size = Number.POSITIVE_INFINITY) {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  const scanner = new CsvScanner({
    cell(column, bytes, start, end) {
      expect(column).toBe(cells.length);
      cells.push(decoder.text(bytes.subarray(start, end)));
    },
    row(count, line) {
      expect(count).toBe(cells.length);
      rows.push({ line, cells });
      cells = [];
    },
  });
  const bytes = encodeUtf8(text);
  const step = Math.min(size, bytes.length || 1);
  // One buffer filled again for every chunk, as a file reader's is: what the scanner keeps must be its own copy.
  const chunk = new Uint8Array(step);
  for (let at = 0; at < bytes.length; at += step) {
    const piece = bytes.subarray(at, at + step);
    chunk.set(piece);
    scanner.push(chunk.subarray(0, piece.length));
  }
  const oddities = scanner.end();
  return { rows, oddities };
}

const WELL_FORMED = [
  "a,b,list,text",
  '1,2.5,"[1,-1,2]","say ""hi"""',
  "",
  '3,,"[]","two\nlines"',
  "4,-0.5,x,y\r",
  "5,1e3,,",
].join("\n");

const EXPECTED = [
  { line: 1, cells: ["a", "b", "list", "text"] },
  { line: 2, cells: ["1", "2.5", "[1,-1,2]", 'say "hi"'] },
  { line: 4, cells: ["3", "", "[]", "two\nlines"] },
  { line: 6, cells: ["4", "-0.5", "x", "y"] },
  { line: 7, cells: ["5", "1e3", "", ""] },
];

describe("CsvScanner", () => {
  it("reads quoted cells, escaped quotes, line ends inside quotes, CRLF, blank lines and a last line without end", () => {
    const { rows, oddities } = scan(WELL_FORMED);
    expect(rows).toEqual(EXPECTED);
    expect(oddities).toEqual({ unclosedQuote: false, strayQuotes: 0, firstStrayQuoteLine: 0 });
  });

  it("reads the same cells whatever the chunks' size", () => {
    for (let size = 1; size <= WELL_FORMED.length; size++) expect(scan(WELL_FORMED, size).rows).toEqual(EXPECTED);
  });

  it("reads random text of commas, quotes and line ends alike whatever the chunks, and always ends", () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * n);
    };
    const alphabet = ["a", "1", ",", '"', "\n", "\r", "-", "."];
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: random(60) }, () => alphabet[random(alphabet.length)]).join("");
      const whole = scan(text);
      expect(scan(text, 1 + random(7)), JSON.stringify(text)).toEqual(whole);
    }
  });

  it("skips a byte order mark and reads a file ending with a line end as its rows alone", () => {
    expect(scan("\ufeffx,y\n1,2\n").rows).toEqual([
      { line: 1, cells: ["x", "y"] },
      { line: 2, cells: ["1", "2"] },
    ]);
    expect(scan("").rows).toEqual([]);
    expect(scan("x,\n").rows).toEqual([{ line: 1, cells: ["x", ""] }]);
  });

  it("says when the file ends inside a quote, and where text follows a closing quote", () => {
    for (const size of [1, 3, 100]) {
      const unclosed = scan('a,b\n1,"open\n2,3\n', size);
      expect(unclosed.rows.at(-1)).toEqual({ line: 2, cells: ["1", "open\n2,3\n"] });
      expect(unclosed.oddities.unclosedQuote).toBe(true);
      const stray = scan('a,b\n1,2\n"x"y,3\n"z" ,4\n', size);
      expect(stray.rows.slice(2)).toEqual([
        { line: 3, cells: ["xy", "3"] },
        { line: 4, cells: ["z ", "4"] },
      ]);
      expect(stray.oddities).toMatchObject({ strayQuotes: 2, firstStrayQuoteLine: 3 });
    }
  });

  it("refuses a cell longer than 1 MiB, naming its line, rather than copying it on with every chunk", () => {
    const scanner = new CsvScanner({ cell() {}, row() {} });
    scanner.push(encodeUtf8('a\n"'));
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    expect(() => {
      for (let pushed = 0; pushed <= MAX_CELL_BYTES; pushed += chunk.length) scanner.push(chunk);
    }).toThrow("line 2: a cell longer than 1 MiB");
  });
});
