// Random CSV files for the CSV module's tests: cells with commas, quotes, CR and LF (quoted as RFC 4180 wants), quotes
// inside unquoted cells, blank lines, LF and CRLF, a last row with or without its line end; each row's offset and
// cells known as it is written, so a reader's rows are checked against the writer's, not against another reader.
import { seededRandom } from "./seeded-random.js";

const encoder = new TextEncoder();

/** A random cell as written, and the text a reader should make of it. */
function cell(random: () => number): { written: string; text: string } {
  const alphabet = ["a", "7", ",", '"', "\n", "\r", " ", "é"];
  const length = Math.floor(random() * 6);
  let text = "";
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
  if (random() < 0.15) {
    // A quote inside an unquoted cell: text, read as written.
    const written = `ab"c${text.replace(/[,\n\r"]/g, "")}`;
    return { written, text: written };
  }
  const quoted = /[,"\n\r]/.test(text) || text === "";
  return { written: quoted ? `"${text.replace(/"/g, '""')}"` : text, text };
}

export interface RandomCsv {
  bytes: Uint8Array;
  /** Where each row starts. */
  starts: number[];
  /** Each row's cells as a reader should give them. */
  rows: string[][];
}

/** A CSV of `rows` rows (1 to 4 cells each) with blank lines between some. */
export function randomCsv(rows: number, seed: number): RandomCsv {
  const random = seededRandom(seed);
  const parts: Uint8Array[] = [];
  const starts: number[] = [];
  const cellsOfRows: string[][] = [];
  let length = 0;
  const add = (text: string) => {
    const bytes = encoder.encode(text);
    parts.push(bytes);
    length += bytes.length;
  };
  for (let r = 0; r < rows; r++) {
    if (random() < 0.1) add(random() < 0.5 ? "\n" : "\r\n");
    starts.push(length);
    const cells = Array.from({ length: 1 + Math.floor(random() * 4) }, () => cell(random));
    cellsOfRows.push(cells.map(({ text }) => text));
    add(cells.map(({ written }) => written).join(","));
    if (r < rows - 1 || random() < 0.5) add(random() < 0.5 ? "\n" : "\r\n");
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, starts, rows: cellsOfRows };
}
