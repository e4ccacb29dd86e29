// tracemill extract --features nfstream as a user runs it: NFStream's columns, --splt and its bad values.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAX_SPLT } from "@tracemill/core/features";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const capture = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");
const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-nfstream-test-"));
/** A CSV line's cells, a list cell with its quotes. */
const cells = (line: string) => line.match(/"[^"]*"|[^,]+/g) ?? [];

/** The run's rows by column name. */
function extract(args: string[]) {
  const dir = scratch();
  const out = path.join(dir, "features.csv");
  const result = runCli(["extract", capture, "-o", out, ...args]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  const [header, ...lines] = fs.readFileSync(out, "utf8").trimEnd().split("\n");
  const names = header.split(",");
  const rows = lines.map((line) => {
    const values = cells(line);
    expect(values).toHaveLength(names.length);
    return Object.fromEntries(names.map((name, i) => [name, values[i]]));
  });
  const summary = JSON.parse(fs.readFileSync(path.join(dir, "features.summary.json"), "utf8"));
  return { names, rows, summary, csv: fs.readFileSync(out) };
}

const list = (cell: string) => JSON.parse(cell.slice(1, -1)) as number[];
const total = (rows: Record<string, string>[], name: string) => rows.reduce((sum, row) => sum + Number(row[name]), 0);

describe("tracemill extract --features nfstream", () => {
  it("writes NFStream's 66 columns after the key, every TCP/UDP packet and byte counted, sequences of --splt", () => {
    const { names, rows, summary } = extract(["--features", "nfstream", "--splt", "3"]);
    expect(names).toHaveLength(6 + 66);
    expect(names.slice(-3)).toEqual(["splt_direction", "splt_ps", "splt_piat_ms"]);
    expect(summary.options).toEqual({
      features: ["nfstream"],
      idleTimeout: 120,
      activeTimeout: 1800,
      length: "ip",
      splt: 3,
    });
    // tshark -r wikipedia-browse.pcap -Y "tcp or udp": 126 packets, IP lengths (IPv6: 40 + payload) 22 896 bytes.
    expect(total(rows, "bidirectional_packets")).toBe(126);
    expect(total(rows, "bidirectional_bytes")).toBe(22896);
    for (const row of rows) {
      const packets = Number(row.bidirectional_packets);
      const kept = Math.min(packets, 3);
      for (const name of ["splt_direction", "splt_ps", "splt_piat_ms"]) {
        const values = list(row[name]);
        expect(values).toHaveLength(3);
        expect(values.slice(kept).every((value) => value === -1)).toBe(true);
        expect(values.slice(0, kept).every((value) => value >= 0)).toBe(true);
      }
      expect(list(row.splt_ps)[0]).toBeLessThanOrEqual(Number(row.bidirectional_max_ps));
      expect(list(row.splt_piat_ms)[0]).toBe(0);
    }
  });

  it("keeps 32 packets by default, counts frame lengths with --length frame, and none with --splt 0", () => {
    const { rows, summary } = extract(["--features", "tracemill,nfstream", "--length", "frame"]);
    expect(summary.options.splt).toBe(32);
    // tshark: the same 126 packets' frame lengths, 24 660 bytes.
    expect(total(rows, "bidirectional_bytes")).toBe(24660);
    expect(total(rows, "total_fpktl") + total(rows, "total_bpktl")).toBe(24660);
    for (const row of rows) expect(list(row.splt_ps)).toHaveLength(32);
    const none = extract(["--features", "nfstream", "--splt", "0"]);
    for (const row of none.rows)
      expect([row.splt_direction, row.splt_ps, row.splt_piat_ms]).toEqual(['"[]"', '"[]"', '"[]"']);
  });

  it("leaves the tracemill set's output as it is when --splt is given without nfstream", () => {
    const plain = extract([]);
    const given = extract(["--splt", "7"]);
    expect(given.csv.equals(plain.csv)).toBe(true);
    expect(given.summary.options).toEqual(plain.summary.options);
    expect(plain.summary.options.splt).toBeUndefined();
  });

  it("takes --splt up to 255 and refuses other values with a one-line usage error (exit 2)", () => {
    expect(MAX_SPLT).toBe(255);
    expect(runCli(["extract", capture, "--features", "nfstream", "--splt", String(MAX_SPLT)]).status).toBe(0);
    for (const bad of [String(MAX_SPLT + 1), "-1", "1.5", "x", ""]) {
      const result = runCli(["extract", capture, "--features", "nfstream", "--splt", bad]);
      expect(result.status, bad).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n"), bad).toHaveLength(1);
      expect(result.stderr).toContain(`option '--splt <n>' argument '${bad}' is invalid`);
    }
  });
});
