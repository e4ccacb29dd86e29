// Parquet output read back by an independent reader (hyparquet, a JavaScript reader sharing no code with the Rust
// writer): its schema by column type, and every value equal to the CSV's text, in the same order, for every golden
// capture; the summary in its footer; no file left by a cancelled run; the same file when rows waited on disk.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Column, columnSchema, DEFAULT_FEATURE_SETS, featureSetsNamed } from "@tracemill/core";
import { type FileMetaData, parquetMetadata, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, describe, expect, it, vi } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { FileRowSpill } from "../output/file-row-spill.js";
import { extractFeatures } from "./extract-features.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/features");
const captures = fs
  .readdirSync(path.join(fixtures, "golden"))
  .map((f) => f.replace(/\.csv$/, ""))
  .sort();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-parquet-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const schema = columnSchema(DEFAULT_FEATURE_SETS);

async function parquetOf(
  capture: string,
  name: string,
  options: { idleTimeout?: number; rowMemoryBytes?: number; features?: string[] } = {},
): Promise<{ file: ArrayBuffer; summary: unknown }> {
  const outDir = path.join(dir, name);
  fs.mkdirSync(outDir);
  await extractFeatures(fixturePath(capture), { outDir, format: "parquet", ...options });
  expect(fs.readdirSync(outDir).sort()).toEqual(["features.parquet", "summary.json"]);
  const bytes = fs.readFileSync(path.join(outDir, "features.parquet"));
  const summary = JSON.parse(fs.readFileSync(path.join(outDir, "summary.json"), "utf8"));
  return { file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), summary };
}

/** A CSV line's cells, quotes undone (RFC 4180: a list's cell is quoted for its commas). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') cell += line[i++];
    else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  return [...cells, cell];
}

/**
 * The CSV's rows as values: ints and times as bigints (times in nanoseconds), reals as numbers, lists as arrays of
 * bigints, text as is.
 */
function csvValues(text: string, columns: readonly Column[] = schema): unknown[][] {
  const [header, ...lines] = text.trimEnd().split("\n");
  expect(header.split(",")).toEqual(columns.map((column) => column.name));
  return lines.map((line) =>
    cellsOf(line).map((cell, i) => {
      switch (columns[i].type) {
        case "int":
          return BigInt(cell);
        case "time": {
          const [whole, fraction = ""] = cell.replace("-", "").split(".");
          const ns = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
          return cell.startsWith("-") ? -ns : ns;
        }
        case "real":
          return Number(cell);
        case "list":
          return (JSON.parse(cell) as number[]).map(BigInt);
        default:
          return cell;
      }
    }),
  );
}

async function parquetValues(file: ArrayBuffer, columns: readonly Column[] = schema): Promise<unknown[][]> {
  const rows = await parquetReadObjects({
    file,
    compressors,
    parsers: { timestampFromNanoseconds: (ns: bigint) => ns },
  });
  return rows.map((row) => columns.map((column) => row[column.name]));
}

function summaryIn(metadata: FileMetaData): unknown {
  const entry = metadata.key_value_metadata?.find((kv) => kv.key === "tracemill.summary");
  return JSON.parse(entry?.value ?? "null");
}

describe("Parquet output", () => {
  it("holds the golden CSVs' values, typed, in the same order, with the run summary in its footer", async () => {
    expect(captures.length).toBeGreaterThanOrEqual(5);
    for (const capture of captures) {
      const { file, summary } = await parquetOf(capture, capture);
      const metadata = parquetMetadata(file);
      // The leaves of the schema, by the column types of docs/formats.md's "Parquet output".
      const leaves = metadata.schema.slice(1);
      expect(leaves.map((leaf) => leaf.name)).toEqual(schema.map((column) => column.name));
      leaves.forEach((leaf, i) => {
        expect(leaf.repetition_type).toBe("REQUIRED");
        const type = schema[i].type;
        if (type === "int") expect([leaf.type, leaf.logical_type]).toEqual(["INT64", undefined]);
        if (type === "real") expect(leaf.type).toBe("DOUBLE");
        if (type === "time") {
          expect(leaf.type).toBe("INT64");
          expect(leaf.logical_type).toEqual({ type: "TIMESTAMP", isAdjustedToUTC: true, unit: "NANOS" });
        }
        if (type === "string") expect([leaf.type, leaf.converted_type]).toEqual(["BYTE_ARRAY", "UTF8"]);
      });
      for (const group of metadata.row_groups)
        for (const column of group.columns) expect(column.meta_data?.codec).toBe("ZSTD");
      const expected = csvValues(fs.readFileSync(path.join(fixtures, "golden", `${capture}.csv`), "utf8"));
      expect(Number(metadata.num_rows)).toBe(expected.length);
      expect(await parquetValues(file)).toEqual(expected);
      expect(summaryIn(metadata)).toEqual(summary);
      expect(summary).toMatchObject({ parquet: { name: "features.parquet", rows: expected.length, columns: 50 } });
      expect(summary).not.toHaveProperty("csv");
    }
  });

  it("holds every other feature set's golden CSV values too (cic's missing windows, nfstream's lists)", async () => {
    const sets = fs.readdirSync(path.join(fixtures, "golden-sets")).sort();
    expect(sets).toEqual(["cic", "nfstream"]);
    for (const set of sets) {
      const columns = columnSchema(featureSetsNamed([set]));
      expect(columns.some((column) => column.type === "list")).toBe(set === "nfstream");
      for (const capture of captures) {
        const { file } = await parquetOf(capture, `${capture}-${set}`, { features: [set] });
        const expected = csvValues(
          fs.readFileSync(path.join(fixtures, "golden-sets", set, `${capture}.csv`), "utf8"),
          columns,
        );
        expect(await parquetValues(file, columns)).toEqual(expected);
      }
    }
  });

  it("is the same file when rows waited on disk", async () => {
    const appends = vi.spyOn(FileRowSpill.prototype, "append");
    let spilled = 0;
    for (const capture of captures) {
      const before = appends.mock.calls.length;
      const onDisk = await parquetOf(capture, `${capture}-spilled`, { idleTimeout: 0.5, rowMemoryBytes: 1 });
      if (appends.mock.calls.length > before) spilled++;
      const inMemory = await parquetOf(capture, `${capture}-memory`, { idleTimeout: 0.5 });
      expect(Buffer.from(onDisk.file).equals(Buffer.from(inMemory.file))).toBe(true);
      // And the values are the CSV's with the same options.
      const csvDir = path.join(dir, `${capture}-csv`);
      fs.mkdirSync(csvDir);
      await extractFeatures(fixturePath(capture), { outDir: csvDir, idleTimeout: 0.5 });
      const csv = csvValues(fs.readFileSync(path.join(csvDir, "features.csv"), "utf8"));
      expect(await parquetValues(onDisk.file)).toEqual(csv);
    }
    appends.mockRestore();
    expect(spilled).toBeGreaterThanOrEqual(3);
  });

  it("leaves no file when the run is cancelled, before or during the pass", async () => {
    const before = new AbortController();
    before.abort();
    const outDir = path.join(dir, "cancelled");
    fs.mkdirSync(outDir);
    const input = fixturePath("dvwa-web-attacks.pcapng");
    await expect(extractFeatures(input, { outDir, format: "parquet", signal: before.signal })).rejects.toMatchObject({
      code: "CANCELLED",
    });
    expect(fs.readdirSync(outDir)).toEqual([]);
    // A pcap of several 1 MiB reads (a small capture's packets over and over): cancelled after the first read.
    const pcap = fs.readFileSync(fixturePath("log4shell-exploit.pcap"));
    const large = path.join(dir, "large.pcap");
    fs.writeFileSync(large, Buffer.concat([pcap, ...Array.from({ length: 800 }, () => pcap.subarray(24))]));
    const during = new AbortController();
    await expect(
      extractFeatures(large, { outDir, format: "parquet", signal: during.signal, onPackets: () => during.abort() }),
    ).rejects.toMatchObject({ code: "CANCELLED" });
    expect(fs.readdirSync(outDir)).toEqual([]);
  });
});
