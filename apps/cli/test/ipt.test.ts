// tracemill ipt on a public capture: one line per CSV row, as many gaps as packets − 1, summing to the duration and
// averaging to mean_flowipt.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-ipt-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Exact nanoseconds of a decimal seconds text ("-0.5" → −500000000). */
function nanoseconds(text: string): bigint {
  const negative = text.startsWith("-");
  const [whole, fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const value = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
  return negative ? -value : value;
}

describe("tracemill ipt", () => {
  for (const capture of ["benign/http-bro-org.pcap", "formats/ipv6_ftp.pcap"]) {
    it(`matches the CSV of ${path.basename(capture)} line for line`, () => {
      const out = path.join(dir, `${path.basename(capture)}.txt`);
      const result = runCli(["ipt", path.resolve(repoRoot, "test/fixtures/capture", capture), "-o", out]);
      expect(result.status, result.stderr).toBe(0);
      const lines = fs.readFileSync(out, "utf8").split("\n");
      expect(lines.pop()).toBe("");
      const [header, ...rows] = fs
        .readFileSync(out.replace(/\.txt$/, ".csv"), "utf8")
        .trimEnd()
        .split("\n");
      const names = header.split(",");
      expect(lines).toHaveLength(rows.length);
      expect(result.stderr).toContain(`${rows.length} sessions`);
      rows.forEach((row, i) => {
        const columns = Object.fromEntries(row.split(",").map((v, k) => [names[k], v]));
        const packets = Number(columns.total_fpackets) + Number(columns.total_bpackets);
        const gaps = lines[i] === "" ? [] : lines[i].split(",");
        expect(gaps, `row ${i + 1}`).toHaveLength(packets - 1);
        for (const gap of gaps) expect(gap).toMatch(/^\d+(\.\d{1,9})?$/);
        const total = gaps.reduce((sum, gap) => sum + nanoseconds(gap), 0n);
        expect(total, `row ${i + 1}`).toBe(nanoseconds(columns.flowduration));
        const mean = gaps.length === 0 ? 0 : Number(total) / 1e9 / gaps.length;
        expect(Math.abs(mean - Number(columns.mean_flowipt)), `row ${i + 1}`).toBeLessThanOrEqual(5e-7);
      });
    });
  }

  it("signs the gaps of backward packets with --signed and writes the CSV where --csv says", () => {
    const capture = path.resolve(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");
    const plain = path.join(dir, "plain.txt");
    const signed = path.join(dir, "signed.txt");
    const csv = path.join(dir, "elsewhere.csv");
    expect(runCli(["ipt", capture, "-o", plain]).status).toBe(0);
    const result = runCli(["ipt", capture, "-o", signed, "--signed", "--csv", csv]);
    expect(result.status, result.stderr).toBe(0);
    expect(fs.existsSync(csv)).toBe(true);
    const a = fs.readFileSync(plain, "utf8");
    const b = fs.readFileSync(signed, "utf8");
    expect(b).toContain("-");
    expect(b.replace(/-/g, "")).toBe(a);
  });
});
