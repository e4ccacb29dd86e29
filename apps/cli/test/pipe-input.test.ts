// Captures on standard input ("-"): read as they come, with the same rows as from the file and the summary's size
// and SHA-256 of every byte given, damaged or not; commands that must read their capture twice refuse a pipe.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const capture = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");
const bytes = fs.readFileSync(capture);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-pipe-"));
const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");
const summaryOf = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));

describe("a capture on standard input", () => {
  it("extract - gives the file's CSV, and a summary of the bytes read from the pipe", () => {
    const fromFile = runCli(["extract", capture, "-o", path.join(dir, "file.csv")]);
    const fromPipe = runCli(["extract", "-", "-o", path.join(dir, "pipe.csv")], { input: bytes });
    expect(fromFile.status).toBe(0);
    expect(fromPipe.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, "pipe.csv"))).toEqual(fs.readFileSync(path.join(dir, "file.csv")));
    const summary = summaryOf(path.join(dir, "pipe.summary.json"));
    expect(summary.input).toEqual({ name: "stdin", bytes: bytes.length, sha256: sha256(bytes), format: "pcap" });
    expect(summary.packets).toEqual(summaryOf(path.join(dir, "file.summary.json")).packets);
  });

  it("reads a damaged stream to its end: the digest and size are of everything given", () => {
    // The capture's first half, then bytes that are no packet record.
    const given = Buffer.concat([bytes.subarray(0, bytes.length >> 1), Buffer.alloc(300_000, 0xee)]);
    const result = runCli(["extract", "-", "-o", path.join(dir, "cut.csv")], { input: given });
    expect(result.status).toBe(1);
    const summary = summaryOf(path.join(dir, "cut.summary.json"));
    expect(summary.complete).toBe(false);
    expect(summary.damage.offset).toBeGreaterThan(0);
    expect(summary.damage.offset).toBeLessThan(given.length);
    expect(summary.input.bytes).toBe(given.length);
    expect(summary.input.sha256).toBe(sha256(given));
    expect(result.stderr).toMatch(/^tracemill: \/dev\/stdin: damaged capture at byte \d+ /);
  });

  it("ipt - and label - read a pipe too", () => {
    const ipt = runCli(["ipt", "-", "-o", path.join(dir, "ipt.txt")], { input: bytes });
    expect(ipt.status).toBe(0);
    const label = runCli(["label", "-", "--attacks", capture, "-o", path.join(dir, "labelled.csv")], { input: bytes });
    expect(label.status).toBe(0);
    const rows = fs.readFileSync(path.join(dir, "labelled.csv"), "utf8").trimEnd().split("\n").slice(1);
    expect(rows.length).toBeGreaterThan(1);
    // Every session of the capture is in the attack capture (the same file): all labelled 1.
    for (const row of rows) expect(row.endsWith(",1")).toBe(true);
  });

  it("refuses gzip data on a pipe, and sanitize refuses a pipe, each saying what to do", () => {
    const gz = runCli(["extract", "-"], { input: gzipSync(bytes) });
    expect(gz.status).toBe(1);
    expect(gz.stderr).toBe(
      "tracemill: /dev/stdin: gzip-compressed data on a pipe: decompress it before the pipe (zcat FILE | tracemill …), or give the file\n",
    );
    const sanitize = runCli(["sanitize", "-", "--out", path.join(dir, "sanitized")], { input: bytes });
    expect(sanitize.status).toBe(1);
    expect(sanitize.stderr).toMatch(/^tracemill: \/dev\/stdin: not a regular file; sanitize reads its capture twice/);
  });
});
