// The Parquet writer on its own, read back by hyparquet: row groups of the size asked although rows reach the writer
// in smaller batches, columns written plain (no dictionary) with ZSTD, values and summary as given. One suite for both
// ways of writing: on the caller's thread (ParquetFile) and on a thread of its own (ParquetThreadFile).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CellRowBuilder } from "@tracemill/core";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, describe, expect, it } from "vitest";
import { ParquetFile } from "./parquet-file.js";
import { ParquetThreadFile } from "./parquet-thread.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-parquet-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const writers = [
  { name: "ParquetFile", open: ParquetFile.open },
  { name: "ParquetThreadFile", open: ParquetThreadFile.open },
];

describe.each(writers)("$name", ({ open }) => {
  it("writes a file of no rows with its columns (a capture without sessions, an empty split)", async () => {
    const target = path.join(dir, `none-${open.name}.parquet`);
    const schema = [
      { name: "n", type: "int" as const },
      { name: "text", type: "string" as const },
      { name: "at", type: "time" as const },
    ];
    const file = await open(target, schema, { createdBy: "tracemill test", summaryBytes: 64 });
    await file.commit('{"rows":0}');
    const bytes = fs.readFileSync(target);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const metadata = parquetMetadata(buffer);
    expect(Number(metadata.num_rows)).toBe(0);
    expect(metadata.schema.slice(1).map((element) => element.name)).toEqual(["n", "text", "at"]);
    expect(await parquetReadObjects({ file: buffer, compressors })).toEqual([]);
  });

  it("gathers the rows into row groups of the size asked, plain and ZSTD-compressed, in order", async () => {
    const target = path.join(dir, `rows-${open.name}.parquet`);
    const file = await open(
      target,
      [
        { name: "n", type: "int" },
        { name: "text", type: "string" },
      ],
      { createdBy: "tracemill test", summaryBytes: 64, rowGroupRows: 20_000 },
    );
    // 50 000 rows, handed over a thousand at a time, as OrderedRows passes neighbouring rows.
    const row = new CellRowBuilder();
    const piece = new Uint8Array(1 << 20);
    let used = 0;
    for (let n = 0; n < 50_000; n++) {
      row.start();
      row.int(n * 3);
      row.text(`row ${n}`);
      row.end();
      piece.set(row.bytes.subarray(0, row.length), used);
      used += row.length;
      if (n % 1000 === 999) {
        file.write(piece, 0, used);
        used = 0;
      }
    }
    await file.commit('{"rows":50000}');
    expect(fs.existsSync(target)).toBe(true);

    const bytes = fs.readFileSync(target);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const metadata = parquetMetadata(buffer);
    expect(metadata.row_groups.map((group) => Number(group.num_rows))).toEqual([20_000, 20_000, 10_000]);
    for (const group of metadata.row_groups)
      for (const column of group.columns) {
        expect(column.meta_data?.codec).toBe("ZSTD");
        expect(column.meta_data?.encodings.filter((encoding) => encoding.includes("DICTIONARY"))).toEqual([]);
      }
    expect(metadata.created_by).toBe("tracemill test");
    const summary = metadata.key_value_metadata?.find((kv) => kv.key === "tracemill.summary")?.value;
    expect(JSON.parse(summary ?? "null")).toEqual({ rows: 50_000 });
    const rows = await parquetReadObjects({ file: buffer, compressors });
    expect(rows.length).toBe(50_000);
    expect(rows.every((r, n) => r.n === BigInt(n * 3) && r.text === `row ${n}`)).toBe(true);
  });
});

describe("ParquetThreadFile", () => {
  const schema = [
    { name: "n", type: "int" as const },
    { name: "text", type: "string" as const },
  ];
  const rowOf = (n: number, text: string) => {
    const row = new CellRowBuilder();
    row.start();
    row.int(n);
    row.text(text);
    row.end();
    return row.bytes.slice(0, row.length);
  };

  it("takes a row larger than its buffers, between ordinary ones, in order", async () => {
    const target = path.join(dir, "large-row.parquet");
    const file = await ParquetThreadFile.open(target, schema, { createdBy: "tracemill test", summaryBytes: 64 });
    const large = "x".repeat(3 << 20);
    for (const [n, text] of [
      [1, "a"],
      [2, large],
      [3, "c"],
    ] as const) {
      const bytes = rowOf(n, text);
      file.write(bytes, 0, bytes.length);
    }
    await file.commit("{}");
    const bytes = fs.readFileSync(target);
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      compressors,
    });
    expect(rows.map((r) => [r.n, r.text.length])).toEqual([
      [1n, 1],
      [2n, large.length],
      [3n, 1],
    ]);
  });

  it("says which file it cannot create, and a discarded file leaves nothing behind", async () => {
    const missing = path.join(dir, "no-such-folder", "out.parquet");
    await expect(ParquetThreadFile.open(missing, schema, { createdBy: "t", summaryBytes: 64 })).rejects.toMatchObject({
      code: "OUTPUT_FAILED",
      message: expect.stringContaining(`${missing}: cannot be created`),
    });
    const target = path.join(dir, "discarded.parquet");
    const file = await ParquetThreadFile.open(target, schema, { createdBy: "t", summaryBytes: 64 });
    const bytes = rowOf(1, "a");
    file.write(bytes, 0, bytes.length);
    await file.discard();
    expect(fs.readdirSync(dir).filter((name) => name.startsWith("discarded"))).toEqual([]);
  });

  it("fails at commit with the writer's own error when the summary outgrows its room", async () => {
    const target = path.join(dir, "summary.parquet");
    const file = await ParquetThreadFile.open(target, schema, { createdBy: "t", summaryBytes: 8 });
    await expect(file.commit(JSON.stringify({ far: "too long for eight bytes" }))).rejects.toMatchObject({
      code: "OUTPUT_FAILED",
      message: expect.stringMatching(/summary\.parquet: the tracemill\.summary metadata \(\d+ bytes\) exceeds its 8/),
    });
    await file.discard();
    expect(fs.readdirSync(dir).filter((name) => name.startsWith("summary"))).toEqual([]);
  });
});
