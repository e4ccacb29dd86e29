// Output tables opened for the explorer: the CSV and the Parquet file of one extraction give the same columns and
// the same answer for every column; a CSV's oddities (rows of the wrong length, cells that are no numbers, an empty
// file) are answered and named with their lines; answers come from the cache once it is built; an unreadable Parquet
// file is refused naming it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { extractFeatures } from "../extract/extract-features.js";
import { exploreColumn, openExploredTable } from "./explored-table.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-explore-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A CSV file of `text` and a fresh cache directory for it. */
function csvFile(name: string, text: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return { file, cache: path.join(dir, `${name}.cache`) };
}

describe("an extraction's CSV and Parquet outputs", () => {
  it("give the same columns and, for every column, the same answer, split by protocol on a log scale too", async () => {
    const capture = fixturePath("stratosphere-malicious-7.pcap");
    const features = ["tracemill", "cic", "nfstream"];
    const tables = [];
    for (const format of ["csv", "parquet"] as const) {
      const outDir = path.join(dir, `extract-${format}`);
      fs.mkdirSync(outDir);
      await extractFeatures(capture, { outDir, format, features });
      const name = `features.${format}`;
      tables.push(await openExploredTable(path.join(outDir, name), path.join(dir, `${format}.cache`), name));
    }
    const [csv, parquet] = tables;
    expect(csv.info.format).toBe("csv");
    expect(parquet.info.format).toBe("parquet");
    expect(csv.info.rows).toBe(312);
    expect({ ...parquet.info, format: "csv" }).toEqual(csv.info);
    expect(csv.info.columns.find((c) => c.name === "srcIP")?.type).toBe("text");
    expect(csv.info.columns.find((c) => c.name === "splt_ps")?.type).toBe("text");
    expect(csv.info.columns.find((c) => c.name === "ts")?.type).toBe("numeric");
    // The session key and the tracemill set's first columns (integers, reals, times, addresses), the nfstream set's
    // lists, and a cic name with a slash: every kind of column, without a first read of each of the 192.
    const names = csv.info.columns.map((column) => column.name);
    const chosen = [...names.slice(0, 20), ...names.filter((name) => name.startsWith("splt_")), "Flow Bytes/s"];
    expect(chosen.filter((name) => names.includes(name))).toHaveLength(24);
    for (const name of chosen) {
      const options = { bins: 17, scale: "log" as const, by: "protocol" };
      expect(await exploreColumn(parquet, name, options), name).toEqual(await exploreColumn(csv, name, options));
      expect(await exploreColumn(parquet, name), name).toEqual(await exploreColumn(csv, name));
    }
    // One figure by the test's own reading of the CSV: the mean packet length's mean over all rows.
    const lines = fs
      .readFileSync(path.join(dir, "extract-csv", "features.csv"), "utf8")
      .trimEnd()
      .split("\n");
    const at = lines[0].split(",").indexOf("mean_flowpktl");
    const values = lines.slice(1).map((line) => Number(line.split(",")[at]));
    const described = await exploreColumn(csv, "mean_flowpktl");
    expect(described?.count).toBe(values.length);
    expect(described?.stats?.mean).toBeCloseTo(values.reduce((sum, v) => sum + v, 0) / values.length, 9);
  });
});

describe("a CSV's oddities", () => {
  it("are counted and named: short and long rows, a cell that is no number, quotes, a name given twice", async () => {
    const { file, cache } = csvFile(
      "odd.csv",
      [
        "bytes,proto,label,bytes",
        "10,tcp,0,1",
        "20,udp,1",
        "x7,tcp,0,1,extra",
        "40,tcp,1,1",
        '"50",tcp,0,1',
        "oops,tcp,,1",
      ].join("\n"),
    );
    const table = await openExploredTable(file, cache, "odd.csv");
    expect(table.info.rows).toBe(6);
    expect(table.info.columns).toEqual([
      { name: "bytes", type: "numeric" },
      { name: "proto", type: "text" },
      { name: "label", type: "numeric" },
      { name: "bytes", type: "numeric" },
    ]);
    expect(table.info.problems).toEqual([
      "odd.csv: 1 rows have fewer cells than the header's 4 (their last cells count as missing) and 1 more (the " +
        "cells past the header's are left out); the first, at line 3, has 3",
      'odd.csv: the column name "bytes" is given twice; the first is explored',
    ]);
    const bytes = await exploreColumn(table, "bytes", { by: "label" });
    expect(bytes).toMatchObject({
      rows: 6,
      count: 4,
      missing: 0,
      invalid: 2,
      firstInvalid: { row: 3, line: 4, text: "x7" },
      stats: { min: 10, max: 50, mean: 30 },
    });
    expect(bytes?.split?.groups).toEqual([
      { name: "0", count: 2 },
      { name: "1", count: 2 },
      { name: "(empty)", count: 0 },
    ]);
    expect(await exploreColumn(table, "label")).toMatchObject({ count: 5, missing: 1, invalid: 0 });
    expect(await exploreColumn(table, "nothing")).toBeNull();
  });

  it("answer an empty file and a header alone with no rows", async () => {
    const empty = csvFile("empty.csv", "");
    const table = await openExploredTable(empty.file, empty.cache, "empty.csv");
    expect(table.info).toEqual({
      format: "csv",
      rows: 0,
      columns: [],
      problems: ["empty.csv is empty: it has no header line"],
    });
    const header = csvFile("header.csv", "a,b\n");
    const headed = await openExploredTable(header.file, header.cache, "header.csv");
    expect(headed.info).toMatchObject({ rows: 0, problems: [] });
    expect(await exploreColumn(headed, "b")).toMatchObject({ rows: 0, count: 0, stats: null, histogram: null });
  });

  it("say where the file ends inside a quote", async () => {
    const { file, cache } = csvFile("open.csv", 'a,b\n1,"never closed\n2,3\n');
    const table = await openExploredTable(file, cache, "open.csv");
    expect(table.info.rows).toBe(1);
    expect(table.info.problems).toEqual(["open.csv ends inside a quoted cell: its quote is never closed"]);
  });
});

describe("the cache", () => {
  it("answers once built, without the CSV or the Parquet file it was built from", async () => {
    const { file, cache } = csvFile("gone.csv", "n,t\n1,a\n2,b\n3,a\n");
    const first = await openExploredTable(file, cache, "gone.csv");
    fs.rmSync(file);
    const again = await openExploredTable(file, cache, "gone.csv").catch(() => null);
    // The format is found from the file's first bytes: without the file, the table cannot be opened again …
    expect(again).toBeNull();
    // … but the table opened before answers from its cache.
    expect((await exploreColumn(first, "t"))?.top).toEqual([
      { value: "a", count: 2 },
      { value: "b", count: 1 },
    ]);
    expect(fs.readdirSync(cache).sort()).toEqual(["0.bin", "0.json", "1.bin", "1.json", "table.json"]);
  });

  it("keeps a Parquet column once read", async () => {
    const outDir = path.join(dir, "cached-parquet");
    fs.mkdirSync(outDir);
    await extractFeatures(fixturePath("dns53.pcap"), { outDir, format: "parquet" });
    const cache = path.join(dir, "parquet-kept.cache");
    const table = await openExploredTable(path.join(outDir, "features.parquet"), cache, "features.parquet");
    const index = table.info.columns.findIndex((column) => column.name === "dstPrt");
    expect(fs.existsSync(path.join(cache, `${index}.bin`))).toBe(false);
    const first = await exploreColumn(table, "dstPrt");
    expect(first?.stats?.min).toBe(53);
    expect(fs.existsSync(path.join(cache, `${index}.bin`))).toBe(true);
    fs.rmSync(path.join(outDir, "features.parquet"));
    expect(await exploreColumn(table, "dstPrt")).toEqual(first);
  });
});

describe("a Parquet file of types Tracemill does not write", () => {
  it("reads nulls as missing, dictionary-encoded text, booleans and 32-bit integers", async () => {
    const [parquet, arrow] = await Promise.all([import("parquet-wasm"), import("apache-arrow")]);
    const table = arrow.tableFromArrays({
      proto: ["tcp", "udp", "tcp", null],
      bytes: [10, null, 30.5, 40],
      ok: [true, false, null, true],
      n: Int32Array.from([1, 2, 3, 4]),
    });
    expect(String(table.schema.fields[0].type)).toBe("Dictionary<Int32, Utf8>");
    const file = path.join(dir, "mixed.parquet");
    fs.writeFileSync(file, parquet.writeParquet(parquet.Table.fromIPCStream(arrow.tableToIPC(table, "stream"))));
    const explored = await openExploredTable(file, path.join(dir, "mixed.cache"), "mixed.parquet");
    expect(explored.info.columns).toEqual([
      { name: "proto", type: "text" },
      { name: "bytes", type: "numeric" },
      { name: "ok", type: "text" },
      { name: "n", type: "numeric" },
    ]);
    expect(await exploreColumn(explored, "proto")).toMatchObject({
      count: 3,
      missing: 1,
      top: [
        { value: "tcp", count: 2 },
        { value: "udp", count: 1 },
      ],
    });
    expect(await exploreColumn(explored, "bytes")).toMatchObject({ count: 3, missing: 1, stats: { min: 10, max: 40 } });
    expect((await exploreColumn(explored, "ok"))?.top).toEqual([
      { value: "true", count: 2 },
      { value: "false", count: 1 },
    ]);
    expect((await exploreColumn(explored, "n"))?.stats).toMatchObject({ mean: 2.5, median: 2.5 });
  });
});

describe("an unreadable Parquet file", () => {
  it("is refused naming it, never another error", async () => {
    const file = path.join(dir, "cut.parquet");
    fs.writeFileSync(file, Buffer.concat([Buffer.from("PAR1"), Buffer.alloc(100, 7)]));
    await expect(openExploredTable(file, path.join(dir, "cut.cache"), "cut.parquet")).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringMatching(/^cut\.parquet: not a Parquet file the explorer can read \(/),
    });
  });
});
