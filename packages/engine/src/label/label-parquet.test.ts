// Labelled rows as Parquet, read back by an independent reader (hyparquet): the same rows as the labelled CSV, the
// label columns typed (label and class_id as integers, class as text), binary and per class.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { labelCapture } from "./label-capture.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-label-parquet-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs labelCapture in CSV and in Parquet; the CSV's header and rows, and the Parquet file's rows as objects. */
async function both(capture: string, options: Record<string, unknown>) {
  const csvDir = fs.mkdtempSync(path.join(dir, "csv-"));
  const parquetDir = fs.mkdtempSync(path.join(dir, "parquet-"));
  const csvRun = await labelCapture(capture, options, { outDir: csvDir });
  const parquetRun = await labelCapture(capture, { ...options, format: "parquet" }, { outDir: parquetDir });
  const [header, ...lines] = fs
    .readFileSync(path.join(csvDir, csvRun.outputs[0].name), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => line.split(","));
  const bytes = fs.readFileSync(path.join(parquetDir, parquetRun.outputs[0].name));
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const rows = await parquetReadObjects({ file, compressors });
  return { csvRun, parquetRun, header, lines, rows };
}

describe("labelled Parquet", () => {
  it("holds the binary labels of the CSV as integers, session by session", async () => {
    const capture = fixturePath("wikipedia-browse.pcap");
    const attacks = fixturePath("dns53.pcap");
    // The capture labels against itself: every session is an attack; against an unrelated capture: none is.
    for (const [against, expected] of [
      [capture, 1n],
      [attacks, 0n],
    ] as const) {
      const { csvRun, parquetRun, header, lines, rows } = await both(capture, { attacks: against, provenance: false });
      expect(parquetRun.outputs.map((o) => [o.name, o.kind])).toEqual([
        ["labelled.parquet", "labelled-parquet"],
        ["summary.json", "summary-json"],
      ]);
      expect(header[header.length - 1]).toBe("label");
      expect(rows).toHaveLength(lines.length);
      expect(rows.map((row) => row.label)).toEqual(lines.map(() => expected));
      // The same sessions in the same order: their ports and packet counts.
      expect(rows.map((row) => `${row.srcPrt}/${row.dstPrt}`)).toEqual(
        lines.map((line) => `${line[header.indexOf("srcPrt")]}/${line[header.indexOf("dstPrt")]}`),
      );
      expect((parquetRun.summary as { labels: unknown }).labels).toEqual(
        (csvRun.summary as { labels: unknown }).labels,
      );
    }
  });

  it("holds the classes of alerts as integer ids and text names", async () => {
    const capture = fixturePath("wikipedia-browse.pcap");
    const alerts = path.join(dir, "eve.json");
    // An EVE alert on the capture's first session, written here from that session's own 5-tuple.
    const extracted = await both(capture, { attacks: capture, provenance: false });
    const first = extracted.lines[0];
    const at = (name: string) => first[extracted.header.indexOf(name)];
    const ts = new Date(Number(at("ts")) * 1000 + 1).toISOString().replace("Z", "+0000");
    fs.writeFileSync(
      alerts,
      `${JSON.stringify({
        timestamp: ts,
        event_type: "alert",
        src_ip: at("srcIP"),
        src_port: Number(at("srcPrt")),
        dest_ip: at("dstIP"),
        dest_port: Number(at("dstPrt")),
        proto: at("protocol") === "6" ? "TCP" : "UDP",
        alert: { signature_id: 1, signature: "test", category: "Attempted Information Leak", severity: 2 },
      })}\n`,
    );
    const { header, lines: rows, rows: parquetRows } = await both(capture, { alerts, provenance: false });
    expect(header.slice(-3)).toEqual(["label", "class_id", "class"]);
    expect(parquetRows).toHaveLength(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const [label, classId, className] = rows[i].slice(-3);
      expect([parquetRows[i].label, parquetRows[i].class_id, parquetRows[i].class]).toEqual([
        BigInt(label),
        BigInt(classId),
        className,
      ]);
    }
    expect(parquetRows.some((row) => row.label === 1n)).toBe(true);
  });
});
