// tracemill merge as a user runs it: outputs, remapped checksums checked by tshark, bad input and bad options.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const fixtures = path.join(repoRoot, "test/fixtures/capture");
const wikipedia = path.join(fixtures, "benign/wikipedia-browse.pcap");

/** Per packet: IPv4 source, destination and the checksum statuses tshark finds (0 bad, 1 good, 2 unverified). */
function tsharkChecks(file: string): string[][] {
  const out = execFileSync(
    "tshark",
    [
      "-r",
      file,
      "-o",
      "ip.check_checksum:TRUE",
      "-o",
      "tcp.check_checksum:TRUE",
      "-o",
      "udp.check_checksum:TRUE",
      "-T",
      "fields",
      "-e",
      "ip.src",
      "-e",
      "ip.dst",
      "-e",
      "ip.checksum.status",
      "-e",
      "tcp.checksum.status",
      "-e",
      "udp.checksum.status",
      "-E",
      "occurrence=f",
    ],
    { encoding: "utf8" },
  );
  return out
    .trim()
    .split("\n")
    .map((line) => line.split("\t"));
}

describe("tracemill merge", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-merge-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("remaps attack addresses with checksums tshark finds valid, and writes the provenance beside", () => {
    const output = path.join(dir, "mixed.pcap");
    const result = runCli([
      "merge",
      wikipedia,
      path.join(fixtures, "attacks/log4shell-exploit.pcap"),
      "-o",
      output,
      "--map",
      "172.17.0.2=10.9.8.7",
      "--map",
      "113.15.107.192=192.168.50.5",
    ]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`171 packets written to mixed.pcap (pcap)`);
    expect(fs.readdirSync(dir).sort()).toEqual(["mixed.pcap", "mixed.provenance.jsonl", "mixed.summary.json"]);
    const rows = tsharkChecks(output);
    expect(rows).toHaveLength(171);
    const addresses = new Set(rows.flatMap((row) => [row[0], row[1]]));
    expect(addresses.has("10.9.8.7")).toBe(true);
    expect(addresses.has("192.168.50.5")).toBe(true);
    expect(addresses.has("172.17.0.2")).toBe(false);
    expect(addresses.has("113.15.107.192")).toBe(false);
    const remapped = rows.filter((row) => row[0] === "10.9.8.7" || row[1] === "10.9.8.7");
    expect(remapped).toHaveLength(35);
    for (const row of remapped)
      expect(
        row.slice(2).filter((status) => status !== ""),
        row.join(" "),
      ).not.toContain("0");
    expect(remapped.every((row) => row[2] === "1" && (row[3] === "1" || row[4] === "1"))).toBe(true);
  });

  it("recomputes offloaded checksums with --recompute-checksums", () => {
    const eternalblue = path.join(fixtures, "attacks/eternalblue-scan.pcap");
    const before = tsharkChecks(eternalblue).filter((row) => row[3] === "0");
    expect(before.length).toBeGreaterThan(0);
    const output = path.join(dir, "m.pcap");
    const args = ["merge", wikipedia, eternalblue, "-o", output, "--map", "192.168.189.138=10.0.0.138"];
    expect(runCli([...args, "--recompute-checksums"]).status).toBe(0);
    const rewritten = tsharkChecks(output).filter((row) => row[0] === "10.0.0.138" || row[1] === "10.0.0.138");
    expect(rewritten).toHaveLength(23);
    for (const row of rewritten) expect([row[2], row[3]], row.join(" ")).toEqual(["1", "1"]);
  });

  it("stops on a damaged capture with a one-line reason and writes nothing", () => {
    const damaged = path.join(dir, "cut.pcap");
    const bytes = fs.readFileSync(wikipedia);
    fs.writeFileSync(damaged, bytes.subarray(0, bytes.length - 7));
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    const result = runCli([
      "merge",
      damaged,
      path.join(fixtures, "attacks/eternalblue-scan.pcap"),
      "-o",
      path.join(out, "m.pcap"),
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^tracemill: cut\.pcap: damaged capture at byte \d+ \(after 135 packets\): truncated/,
    );
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it.each([
    [["--at", "1", "--sequential"], /choose one of --at, --at-time and --sequential/],
    [["--map", "10.0.0.1=fd00::1"], /both sides must be IPv4 or both IPv6/],
    [["--at-time", "2023-11-14T22:13:20"], /--at-time expects an ISO 8601 time with a zone/],
  ])("refuses %j", (extra, message) => {
    const result = runCli(["merge", wikipedia, wikipedia, "-o", path.join(dir, "m.pcap"), ...extra]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses to write over an input", () => {
    const copy = path.join(dir, "bg.pcap");
    fs.copyFileSync(wikipedia, copy);
    const result = runCli(["merge", copy, wikipedia, "-o", copy]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/the output bg.pcap would replace an input/);
    expect(fs.readFileSync(copy).equals(fs.readFileSync(wikipedia))).toBe(true);
  });
});
