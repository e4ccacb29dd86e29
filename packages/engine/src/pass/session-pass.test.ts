// The session pass's hashing: a worker for a large input, none left running however the pass ends (it would keep the
// CLI alive), the pass's own thread for a small file; a CSV written into the caller's own output file is the same
// bytes and is left to the caller.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker as RealWorker } from "node:worker_threads";
import { afterAll, describe, expect, it, vi } from "vitest";
import { extractFeatures } from "../extract/extract-features.js";
import { SMALL_INPUT_BYTES } from "../hashing/index.js";
import { OutputFile } from "../output/output-file.js";
import { NO_DIGEST_NOTE, runSessionPass } from "./session-pass.js";

const live = vi.hoisted(() => new Set<object>());
vi.mock("node:worker_threads", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:worker_threads")>();
  class TrackedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof RealWorker>) {
      super(...args);
      live.add(this);
      this.once("exit", () => live.delete(this));
    }
  }
  return { ...real, Worker: TrackedWorker };
});

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const pcap = path.join(repo, "test/fixtures/capture/formats/same100_100-packets.pcap");

/** A pcap just over SMALL_INPUT_BYTES, hashed on a worker: 64 KiB Ethernet frames of zeros (not IP, so ignored). */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-session-pass-large-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const largePcap = path.join(scratch, "large.pcap");
const frames = Math.ceil(SMALL_INPUT_BYTES / 65_536) + 1;
{
  const header = Buffer.alloc(24);
  header.writeUInt32LE(0xa1b2c3d4, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeUInt32LE(262_144, 16);
  header.writeUInt32LE(1, 20);
  const record = Buffer.alloc(16 + 65_536);
  record.writeUInt32LE(65_536, 8);
  record.writeUInt32LE(65_536, 12);
  const fd = fs.openSync(largePcap, "w");
  fs.writeSync(fd, header);
  for (let i = 0; i < frames; i++) {
    record.writeUInt32LE(1_700_000_000 + i, 0);
    fs.writeSync(fd, record);
  }
  fs.closeSync(fd);
}

const sha256Of = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

describe("runSessionPass", () => {
  it("leaves no worker running when the CSV cannot be created", async () => {
    const outDir = path.join(os.tmpdir(), "tracemill-no-such-dir", String(process.pid));
    await expect(extractFeatures(largePcap, { outDir })).rejects.toMatchObject({ code: "OUTPUT_FAILED" });
    await vi.waitFor(() => expect(live.size).toBe(0), { timeout: 1000 });
  });

  it("hashes a large input on a worker that ends after a run that succeeds", async () => {
    const outDir = path.join(os.tmpdir(), `tracemill-session-pass-${process.pid}`);
    fs.mkdirSync(outDir, { recursive: true });
    const seen = live.size;
    const run = extractFeatures(largePcap, { outDir });
    expect(live.size).toBe(seen + 1);
    const { summary } = await run;
    expect(summary.packets.read).toBe(frames);
    expect(summary.input.sha256).toBe(sha256Of(largePcap));
    await vi.waitFor(() => expect(live.size).toBe(seen), { timeout: 1000 });
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it("hashes a small file on the pass's own thread: no worker, the file's digest", async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-session-pass-"));
    try {
      await vi.waitFor(() => expect(live.size).toBe(0), { timeout: 1000 });
      const run = extractFeatures(pcap, { outDir });
      expect(live.size).toBe(0);
      expect((await run).summary.input.sha256).toBe(sha256Of(pcap));
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });

  it("starts no worker and records no digest when none is wanted, the CSV the same", async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-session-pass-"));
    try {
      const hashed = await extractFeatures(largePcap, { outDir, csvPath: path.join(outDir, "hashed.csv") });
      await vi.waitFor(() => expect(live.size).toBe(0), { timeout: 1000 });
      const run = extractFeatures(largePcap, { outDir, digest: false });
      expect(live.size).toBe(0);
      const { summary } = await run;
      expect(summary.input).toEqual({ ...hashed.summary.input, sha256: null, sha256Note: NO_DIGEST_NOTE });
      expect(fs.readFileSync(path.join(outDir, "features.csv"))).toEqual(
        fs.readFileSync(path.join(outDir, "hashed.csv")),
      );
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });

  it("writes into a caller's output file after its reserve the CSV extract writes, and leaves it open", async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-session-pass-"));
    try {
      const extracted = await extractFeatures(pcap, { outDir });
      const file = new OutputFile(path.join(outDir, "own.bin"), { reserve: 7 });
      const summary = await runSessionPass(pcap, { file, name: "named.csv" }, [], null, {}, {});
      expect(summary.csv).toEqual({ ...extracted.summary.csv, name: "named.csv" });
      expect(fs.existsSync(path.join(outDir, "own.bin"))).toBe(false);
      file.write(Buffer.from("end"));
      await file.commit();
      const csv = fs.readFileSync(path.join(outDir, "features.csv"));
      expect(
        fs.readFileSync(path.join(outDir, "own.bin")).equals(Buffer.concat([Buffer.alloc(7), csv, Buffer.from("end")])),
      ).toBe(true);
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });
});
