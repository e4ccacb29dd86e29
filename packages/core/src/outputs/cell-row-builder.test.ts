// Typed cells (for Parquet) against the CSV text of the same calls: RowCells must read back the values the CSV's text
// denotes, for every kind of cell, from any offset, in batches of the chosen size.
import { describe, expect, it } from "vitest";
import type { ColumnType } from "../features/feature-group.js";
import { CellRowBuilder } from "./cell-row-builder.js";
import { RowBuilder } from "./row-builder.js";
import { type ColumnValues, RowCells } from "./row-cells.js";

const IPV6 = Uint8Array.from([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);

/** One row of every kind of call, each with the type of the columns it writes. */
function writeRow(row: RowBuilder, n: number): ColumnType[] {
  row.int(6 + n);
  row.epoch(-2, 500_000_000);
  row.epoch(1_700_000_000 + n, 5);
  row.ipv4(0xc0a80001 + n);
  row.address(IPV6, 6);
  row.decimal(1 / 3);
  row.decimal(2 ** 60);
  row.decimal(Number.NaN);
  row.seconds(1_500_000_000.4);
  row.seconds(7_999_999_123_456_789);
  row.zeros(2);
  row.ints(Float64Array.from([0, 2 ** 40, 3]), 1, 2);
  row.signed(-7 - n);
  row.list([74, -1, 2 ** 40], 3);
  row.list([], 0);
  row.text('a,b"c é');
  row.ascii("x:y");
  return [
    ...(["int", "time", "time", "string", "string", "real", "real", "real", "real", "real"] as const),
    ...(["int", "int", "int", "int", "int", "list", "list", "string", "string"] as const),
  ];
}

/** The CSV row's cells, quotes undone (RFC 4180). */
function csvCells(text: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') cell += text[i++];
    else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  return [...cells, cell];
}

/** What a reader of the CSV gets from a cell of that type. */
function csvValue(cell: string, type: ColumnType): unknown {
  if (type === "int") return BigInt(cell);
  if (type === "real") return Number(cell);
  if (type === "list") return (JSON.parse(cell) as number[]).map(BigInt);
  if (type === "time") {
    const [whole, fraction = ""] = cell.replace("-", "").split(".");
    const ns = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
    return cell.startsWith("-") ? -ns : ns;
  }
  return cell;
}

/** Row `row` of a batch's column. */
function valueAt(column: ColumnValues, row: number): unknown {
  if (column.type === "string")
    return new TextDecoder().decode(column.bytes.subarray(column.offsets[row], column.offsets[row + 1]));
  if (column.type === "list") return [...column.values.subarray(column.offsets[row], column.offsets[row + 1])];
  return column.values[row];
}

function readBack(pieces: Uint8Array[], types: ColumnType[], capacity: number): { sizes: number[]; rows: unknown[][] } {
  const rows: unknown[][] = [];
  const sizes: number[] = [];
  const cells = new RowCells(types, capacity, (batch, count) => {
    sizes.push(count);
    for (let r = 0; r < count; r++) rows.push(batch.map((column) => valueAt(column, r)));
  });
  for (const piece of pieces) cells.add(piece, 0, piece.length);
  cells.flush();
  return { sizes, rows };
}

describe("cell rows", () => {
  it("override every public method of RowBuilder, so that no text reaches a cell row", () => {
    const methods = Object.getOwnPropertyNames(RowBuilder.prototype).filter(
      (name) => name !== "constructor" && !name.startsWith("_"),
    );
    // RowBuilder's private helpers, which only its own methods call.
    const privateOnes = ["separate", "ensure", "digits", "fraction", "raw", "signedDigits"];
    for (const name of methods.filter((m) => !privateOnes.includes(m)))
      expect(
        Object.hasOwn(CellRowBuilder.prototype, name),
        `RowBuilder.${name} has no CellRowBuilder override (a Parquet row would get CSV text); if private, list it here`,
      ).toBe(true);
  });

  it("read back as the values of the CSV's text, from aligned and unaligned pieces, in batches", () => {
    const csv = new RowBuilder();
    const cell = new CellRowBuilder();
    const expected: unknown[][] = [];
    const rows: Uint8Array[] = [];
    let types: ColumnType[] = [];
    for (let n = 0; n < 5; n++) {
      csv.start();
      types = writeRow(csv, n);
      csv.end();
      const text = new TextDecoder().decode(csv.bytes.subarray(0, csv.length - 1));
      expected.push(csvCells(text).map((c, i) => csvValue(c, types[i])));
      cell.start();
      writeRow(cell, n);
      cell.end();
      rows.push(cell.bytes.slice(0, cell.length));
    }
    // Hand-checked values: the CSV's rounding, kept in the cells.
    expect(expected[0].slice(0, 3)).toEqual([6n, -1_500_000_000n, 1_700_000_000_000_000_005n]);
    expect(expected[0].slice(5, 10)).toEqual([0.333333, 2 ** 60, 0, 1.5, 7_999_999.123456789]);
    expect(expected[0].slice(15, 19)).toEqual([[74n, -1n, 2n ** 40n], [], 'a,b"c é', "x:y"]);

    const whole = new Uint8Array(rows.reduce((sum, r) => sum + r.length, 0));
    let at = 0;
    for (const r of rows) {
      whole.set(r, at);
      at += r.length;
    }
    const aligned = readBack([whole], types, 2);
    expect(aligned.sizes).toEqual([2, 2, 1]);
    expect(aligned.rows).toEqual(expected);
    // Rows read back from a spill may start 4 bytes off a word.
    const shifted = new Uint8Array(whole.length + 4);
    shifted.set(whole, 4);
    expect(readBack([shifted.subarray(4)], types, 64).rows).toEqual(expected);
    expect(readBack(rows, types, 3).rows).toEqual(expected);
  });

  it("copy a cached run of cells as they were written", () => {
    const cell = new CellRowBuilder();
    cell.start();
    cell.decimal(2.5);
    cell.seconds(42);
    const kept = cell.bytes.slice(0, cell.length);
    cell.start();
    cell.int(1);
    cell.columns(kept, 2);
    const { rows } = readBack([cell.bytes.slice(0, cell.length)], ["int", "real", "real"], 8);
    expect(rows).toEqual([[1n, 2.5, 4.2e-8]]);
  });

  it("read back times and integers exactly across the int64's word boundary and at its ends", () => {
    const times: [number, number][] = [
      [0, 0],
      [-1, 999_999_999],
      [4, 294_967_295],
      [4, 294_967_296],
      [65_535, 999_999_999],
      [65_536, 0],
      [-65_537, 5],
      [1_700_000_000, 123_456_789],
      [9_223_372_035, 999_999_999],
      [-9_223_372_036, 0],
      [-9_223_372_036, 854_775_807],
    ];
    // And a spread of others (a fixed linear congruential sequence), seconds of either sign.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 200; i++)
      times.push([(next() % 2_000_000_000) * (i % 2 ? -4 : 4) + (next() % 4), next() % 1e9]);
    const ints = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, -1, -(2 ** 31), -(2 ** 31) - 1];
    const cell = new CellRowBuilder();
    cell.start();
    for (const [sec, nsec] of times) cell.epoch(sec, nsec);
    for (const value of ints) cell.signed(value);
    const types: ColumnType[] = [...times.map(() => "time" as const), ...ints.map(() => "int" as const)];
    const { rows } = readBack([cell.bytes.slice(0, cell.length)], types, 8);
    expect(rows).toEqual([
      [...times.map(([sec, nsec]) => BigInt(sec) * 1_000_000_000n + BigInt(nsec)), ...ints.map((v) => BigInt(v))],
    ]);
  });

  it("refuse a time Parquet's nanoseconds cannot hold", () => {
    const cell = new CellRowBuilder();
    cell.start();
    cell.epoch(10_000_000_000, 0);
    expect(() => readBack([cell.bytes.slice(0, cell.length)], ["time"], 8)).toThrow(/years 1677 to 2262/);
  });
});

describe("RowCells with a long text", () => {
  it("takes a text cell of an odd length beyond twice the column's room", () => {
    const row = new CellRowBuilder();
    const long = "y".repeat(3 * 65_536 + 5);
    const pieces = ["a", long, "c"].map((value) => {
      row.start();
      row.int(1);
      row.text(value);
      row.end();
      return row.bytes.slice(0, row.length);
    });
    const { rows } = readBack(pieces, ["int", "string"], 4);
    expect(rows.map((r) => (r[1] as string).length)).toEqual([1, long.length, 1]);
  });
});
