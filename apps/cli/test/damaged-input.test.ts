// Every capture command on a capture cut short: outputs of the packets before the damage are kept, and the command
// says so in one line (file, byte offset, reason, what the outputs hold) and exits 1, never 0.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const whole = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-damaged-"));
const cut = path.join(dir, "cut.pcap");
const bytes = fs.readFileSync(whole);
fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));

/** The last line a command wrote to standard error, and the summary it wrote. */
function run(args: string[], summary: string) {
  const result = runCli([...args, "--summary", summary]);
  return {
    status: result.status,
    last: result.stderr.trimEnd().split("\n").at(-1) ?? "",
    summary: JSON.parse(fs.readFileSync(summary, "utf8")),
  };
}

describe("capture commands on a damaged capture", () => {
  const cases: [string, string[], string[], (summary: { csv: { rows: number } }) => string][] = [
    [
      "ipt",
      ["-o", path.join(dir, "ipt.txt")],
      ["ipt.txt", "ipt.csv"],
      (s) => `the series and the CSV hold the ${s.csv.rows} sessions`,
    ],
    [
      "images",
      ["-n", "8", "-o", path.join(dir, "images.zip")],
      ["images.zip"],
      (s) => `the images and their CSV hold the ${s.csv.rows} sessions`,
    ],
    [
      "label",
      ["--attacks", whole, "-o", path.join(dir, "labelled.csv")],
      ["labelled.csv"],
      (s) => `the labelled CSV holds the ${s.csv.rows} sessions`,
    ],
  ];
  for (const [command, options, outputs, held] of cases) {
    it(`${command} keeps its outputs, names the file, offset and reason, and exits 1`, () => {
      const result = run([command, cut, ...options], path.join(dir, `${command}.summary.json`));
      expect(result.status).toBe(1);
      expect(result.summary.complete).toBe(false);
      expect(result.summary.csv.rows).toBeGreaterThan(1);
      const { offset, message } = result.summary.damage;
      expect(offset).toBeGreaterThan(24);
      expect(message.startsWith(`${cut}: damaged capture at byte ${offset} (after `)).toBe(true);
      expect(result.last).toBe(`tracemill: ${message}; ${held(result.summary)} of the packets before it`);
      for (const name of outputs) expect(fs.statSync(path.join(dir, name)).size).toBeGreaterThan(0);
    });
  }

  it("sanitize keeps its outputs, names the file, offset and reason, and exits 1", () => {
    const out = path.join(dir, "sanitized");
    const result = runCli(["sanitize", cut, "--out", out, "--verify-passes", "0"]);
    const summary = JSON.parse(fs.readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(result.status).toBe(1);
    expect(summary.complete).toBe(false);
    const last = result.stderr.trimEnd().split("\n").at(-1);
    expect(last).toBe(
      `tracemill: ${summary.damage.message}; the outputs hold the ${summary.packets.input} packets before it`,
    );
    expect(summary.damage.message.startsWith(`${cut}: damaged capture at byte ${summary.damage.offset} (after `)).toBe(
      true,
    );
    expect(fs.statSync(path.join(out, "clean.pcap")).size).toBeGreaterThan(24);
  });
});

describe("capture commands on gzip data cut short or damaged", () => {
  const gz = zlib.gzipSync(bytes);
  const cutGz = path.join(dir, "cut.pcap.gz");
  fs.writeFileSync(cutGz, gz.subarray(0, Math.floor(gz.length / 2)));
  const badGz = path.join(dir, "bad.pcap.gz");
  const flipped = Buffer.from(gz);
  for (let i = 0; i < 8; i++) flipped[Math.floor(gz.length / 2) + i] ^= 0x5a;
  fs.writeFileSync(badGz, flipped);
  const out = (name: string) => path.join(dir, name);
  const commands: [string, (input: string) => string[]][] = [
    ["info", (input) => ["info", input]],
    ["extract", (input) => ["extract", input, "-o", out("gz.csv")]],
    ["label", (input) => ["label", input, "--attacks", whole, "-o", out("gz-labelled.csv")]],
    ["ipt", (input) => ["ipt", input, "-o", out("gz-ipt.txt")]],
    ["images", (input) => ["images", input, "-o", out("gz-images.zip")]],
    ["merge", (input) => ["merge", whole, input, "-o", out(`gz-merged-${path.basename(input)}`)]],
    ["sanitize", (input) => ["sanitize", input, "--out", out(`gz-sanitized-${path.basename(input)}`)]],
  ];
  const cases = [
    ...commands.map(([name, args]) => [name, cutGz, args] as const),
    ...commands
      .filter(([name]) => name === "info" || name === "merge")
      .map(([name, args]) => [name, badGz, args] as const),
  ];
  // merge names its inputs as `merge` summaries do, by file name.
  it.each(cases)("%s on %s exits 1 with one line naming the file, where and why", (_, input, args) => {
    const result = runCli(args(input));
    expect(result.status).toBe(1);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^tracemill: (${input}|${path.basename(input)}): gzip input (at compressed byte|between compressed bytes \\d+ and) \\d+ of ${input === cutGz ? Math.floor(gz.length / 2) : gz.length}, inflated byte \\d+( \\(after \\d+ packets\\))?: the gzip data (ends early, cut short|is damaged) \\(`,
      ),
    );
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  });
});
