// tracemill extract --format parquet as a user runs it: the file and its summary, and the refusal of standard output.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const capture = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");

describe("tracemill extract --format parquet", () => {
  it("writes the Parquet file with the CSV's rows, and its summary beside it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-parquet-cli-"));
    const out = path.join(dir, "out.parquet");
    const result = runCli(["extract", capture, "--format", "parquet", "-o", out]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("");
    expect(fs.readdirSync(dir).sort()).toEqual(["out.parquet", "out.summary.json"]);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, "out.summary.json"), "utf8"));
    expect(summary.parquet).toEqual({ name: "out.parquet", rows: 34, columns: 50 });
    const csv = runCli(["extract", capture]).stdout.trimEnd().split("\n");
    const bytes = fs.readFileSync(out);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(Number(parquetMetadata(file).num_rows)).toBe(csv.length - 1);
    const rows = await parquetReadObjects({ file, compressors, columns: ["srcIP", "srcPrt", "flowduration"] });
    expect(rows.map((row) => `${row.srcIP},${row.srcPrt},${row.flowduration}`)).toEqual(
      csv.slice(1).map((line) => {
        const cells = line.split(",");
        return `${cells[2]},${cells[3]},${Number(cells[6])}`;
      }),
    );
  });

  it("refuses standard output in one line", () => {
    const result = runCli(["extract", capture, "--format", "parquet"]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "tracemill: --format parquet needs -o <file>: Parquet is not written to standard output\n",
    );
    expect(runCli(["extract", capture, "--format", "arrow", "-o", "x"]).stderr).toMatch(/csv, parquet/);
  });
});

describe("tracemill label --format parquet", () => {
  it("writes labelled.parquet by default, with the label column the labelled CSV has", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-label-parquet-cli-"));
    const result = runCli(["label", capture, "--attacks", capture, "--format", "parquet"], { cwd: dir });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("→ labelled.parquet");
    expect(fs.readdirSync(dir)).toEqual(["labelled.parquet"]);
    const csv = runCli(["label", capture, "--attacks", capture, "-o", path.join(dir, "labelled.csv")]);
    expect(csv.status).toBe(0);
    const lines = fs.readFileSync(path.join(dir, "labelled.csv"), "utf8").trimEnd().split("\n");
    const bytes = fs.readFileSync(path.join(dir, "labelled.parquet"));
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const rows = await parquetReadObjects({ file, compressors, columns: ["srcPrt", "label"] });
    expect(rows.map((row) => `${row.srcPrt},${row.label}`)).toEqual(
      lines.slice(1).map((line) => {
        const cells = line.split(",");
        return `${cells[3]},${cells[cells.length - 1]}`;
      }),
    );
  });
});
