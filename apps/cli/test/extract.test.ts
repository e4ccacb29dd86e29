// tracemill extract as a user runs it: CSV on stdout or in a file, summary beside it, usage errors, damaged input.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot, runCli } from "./run-cli.js";

const capture = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");
const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-extract-test-"));

describe("tracemill extract", () => {
  it("writes the CSV to standard output and nothing else when there is no terminal", () => {
    const result = runCli(["extract", capture]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0].split(",")).toHaveLength(50);
    expect(lines[0].startsWith("protocol,ts,srcIP,srcPrt,dstIP,dstPrt,flowduration,")).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line.split(",")).toHaveLength(50);
  });

  it("writes the CSV and its summary to files, byte-identical on a second run", () => {
    const dir = scratch();
    const out = path.join(dir, "features.csv");
    expect(runCli(["extract", capture, "-o", out, "--idle-timeout", "60"]).status).toBe(0);
    const first = fs.readFileSync(out);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, "features.summary.json"), "utf8"));
    expect(summary.input.name).toBe("wikipedia-browse.pcap");
    expect(summary.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(summary.options).toEqual({ features: ["tracemill"], idleTimeout: 60, activeTimeout: 1800, length: "ip" });
    expect(summary.complete).toBe(true);
    expect(summary.csv.rows).toBe(first.toString().trimEnd().split("\n").length - 1);
    expect(summary.packets.read).toBe(136);
    expect(fs.readdirSync(dir).sort()).toEqual(["features.csv", "features.summary.json"]);
    expect(runCli(["extract", capture, "-o", out, "--idle-timeout", "60"]).status).toBe(0);
    expect(fs.readFileSync(out).equals(first)).toBe(true);
  });

  it("exits 2 on a bad option value", () => {
    const result = runCli(["extract", capture, "--length", "bytes"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("ip or frame expected");
    expect(runCli(["extract", capture, "--idle-timeout", "0"]).status).toBe(2);
  });

  it("has no --threads option: passing it is a usage error", () => {
    const result = runCli(["extract", capture, "--threads", "2"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown option '--threads'");
  });

  it("takes no digest with --no-digest: the same CSV, and a summary whose sha256 is null with a note", () => {
    const dir = scratch();
    const hashed = path.join(dir, "hashed.csv");
    const plain = path.join(dir, "plain.csv");
    expect(runCli(["extract", capture, "-o", hashed]).status).toBe(0);
    expect(runCli(["extract", capture, "-o", plain, "--no-digest"]).status).toBe(0);
    expect(fs.readFileSync(plain).equals(fs.readFileSync(hashed))).toBe(true);
    const summary = (csv: string) => JSON.parse(fs.readFileSync(csv.replace(/\.csv$/, ".summary.json"), "utf8"));
    const [withDigest, without] = [summary(hashed), summary(plain)];
    expect(withDigest.input.sha256).toBe(crypto.createHash("sha256").update(fs.readFileSync(capture)).digest("hex"));
    expect(without.input).toEqual({
      name: "wikipedia-browse.pcap",
      bytes: fs.statSync(capture).size,
      sha256: null,
      sha256Note: "no digest taken (--no-digest)",
      format: "pcap",
    });
    expect({ ...without, input: null, csv: null }).toEqual({ ...withDigest, input: null, csv: null });
  });

  it("label, ipt and images take --no-digest too", () => {
    const dir = scratch();
    const runs = [
      ["label", capture, "--attacks", capture, "-o", path.join(dir, "l.csv")],
      ["ipt", capture, "-o", path.join(dir, "i.txt")],
      ["images", capture, "-o", path.join(dir, "m.zip")],
    ];
    for (const [command, ...args] of runs) {
      const summary = path.join(dir, `${command}.summary.json`);
      expect(runCli([command, ...args, "--summary", summary, "--no-digest"]).status).toBe(0);
      const input = JSON.parse(fs.readFileSync(summary, "utf8")).input;
      expect([command, input.sha256, input.sha256Note]).toEqual([command, null, "no digest taken (--no-digest)"]);
    }
  });

  it("writes the same CSV and summary when it may use one core only (each chunk then read on the parsing thread)", () => {
    // Copies of the capture one after another, each 1000 s later, for a file of several 1 MiB chunks.
    const dir = scratch();
    const bytes = fs.readFileSync(capture);
    const copies: Buffer[] = [bytes.subarray(0, 24)];
    for (let copy = 0; copy < 160; copy++) {
      const records = Buffer.from(bytes.subarray(24));
      for (let at = 0; at < records.length; at += 16 + records.readUInt32LE(at + 8)) {
        records.writeUInt32LE(records.readUInt32LE(at) + 1000 * copy, at);
      }
      copies.push(records);
    }
    const big = path.join(dir, "copies.pcap");
    fs.writeFileSync(big, Buffer.concat(copies));
    expect(fs.statSync(big).size).toBeGreaterThan(3 * 1024 * 1024);
    const one = path.join(dir, "one.csv");
    const all = path.join(dir, "all.csv");
    const pinned = spawnSync("taskset", ["-c", "0", process.execPath, cliPath, "extract", big, "-o", one]);
    expect(pinned.status).toBe(0);
    expect(runCli(["extract", big, "-o", all]).status).toBe(0);
    expect(fs.readFileSync(one).equals(fs.readFileSync(all))).toBe(true);
    const summary = (csv: string) => JSON.parse(fs.readFileSync(csv.replace(/\.csv$/, ".summary.json"), "utf8"));
    expect(summary(one).csv.name).toBe("one.csv");
    expect({ ...summary(one), csv: null }).toEqual({ ...summary(all), csv: null });
    expect(summary(one).input.sha256).toBe(crypto.createHash("sha256").update(fs.readFileSync(big)).digest("hex"));
    expect(summary(one).packets.read).toBe(160 * 136);
  });

  it("exits 1 with a one-line message for a missing file", () => {
    const result = runCli(["extract", "/no/such/capture.pcap"]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("/no/such/capture.pcap");
  });

  it("reads several captures as the parts of one, in the order given", () => {
    const dir = scratch();
    const second = path.join(dir, "again.pcap");
    fs.copyFileSync(capture, second);
    const out = path.join(dir, "both.csv");
    const result = runCli(["extract", capture, second, "-o", out]);
    expect(result.status).toBe(0);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, "both.summary.json"), "utf8"));
    expect(summary.inputs.map((input: { name: string }) => input.name)).toEqual([
      "wikipedia-browse.pcap",
      "again.pcap",
    ]);
    expect(summary.packets.read).toBe(2 * 136);
  });

  it("keeps the sessions before the damage of a truncated capture and says the run is incomplete", () => {
    const dir = scratch();
    const cut = path.join(dir, "cut.pcap");
    const bytes = fs.readFileSync(capture);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const out = path.join(dir, "cut.csv");
    const result = runCli(["extract", cut, "-o", out]);
    expect(result.status).toBe(1);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, "cut.summary.json"), "utf8"));
    // One line naming the file once, the offset, the reason and what the CSV holds.
    const sessions = `${summary.csv.rows} session${summary.csv.rows === 1 ? "" : "s"}`;
    expect(result.stderr).toBe(
      `tracemill: ${summary.damage.message}; the CSV holds the ${sessions} of the packets before it\n`,
    );
    expect(summary.damage.message.startsWith(`${cut}: damaged capture at byte ${summary.damage.offset} (after `)).toBe(
      true,
    );
    expect(summary.complete).toBe(false);
    expect(summary.damage.offset).toBeGreaterThan(0);
    expect(summary.packets.read).toBeGreaterThan(0);
    expect(summary.packets.read).toBeLessThan(136);
    const rows = fs.readFileSync(out, "utf8").trimEnd().split("\n").length - 1;
    expect(rows).toBe(summary.csv.rows);
    expect(rows).toBeGreaterThan(0);
  });
});
