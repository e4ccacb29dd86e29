// The Parquet writer on its own, read back by hyparquet: row groups of the size asked although rows reach the writer
// in smaller batches, columns written plain (no dictionary) with ZSTD, values and summary as given.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CellRowBuilder } from "@tracemill/core";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, describe, expect, it } from "vitest";
import { ParquetFile } from "./parquet-file.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-parquet-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("ParquetFile", () => {
  it("writes a file of no rows with its columns (a capture without sessions, an empty split)", async () => {
    const target = path.join(dir, "none.parquet");
    const schema = [
      { name: "n", type: "int" as const },
      { name: "text", type: "string" as const },
      { name: "at", type: "time" as const },
    ];
    const file = await ParquetFile.open(target, schema, { createdBy: "tracemill test", summaryBytes: 64 });
    await file.commit('{"rows":0}');
    const bytes = fs.readFileSync(target);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const metadata = parquetMetadata(buffer);
    expect(Number(metadata.num_rows)).toBe(0);
    expect(metadata.schema.slice(1).map((element) => element.name)).toEqual(["n", "text", "at"]);
    expect(await parquetReadObjects({ file: buffer, compressors })).toEqual([]);
  });

  it("gathers the rows into row groups of the size asked, plain and ZSTD-compressed, in order", async () => {
    const target = path.join(dir, "rows.parquet");
    const file = await ParquetFile.open(
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
