// The session pass when it fails before reading: no hashing worker is left running (it would keep the CLI alive);
// a CSV written into the caller's own output file is the same bytes and is left to the caller.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker as RealWorker } from "node:worker_threads";
import { describe, expect, it, vi } from "vitest";
import { extractFeatures } from "../extract/extract-features.js";
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

describe("runSessionPass", () => {
  it("leaves no worker running when the CSV cannot be created", async () => {
    const outDir = path.join(os.tmpdir(), "tracemill-no-such-dir", String(process.pid));
    await expect(extractFeatures(pcap, { outDir })).rejects.toMatchObject({ code: "OUTPUT_FAILED" });
    await vi.waitFor(() => expect(live.size).toBe(0), { timeout: 1000 });
  });

  it("ends its worker after a run that succeeds (the tracking above sees workers)", async () => {
    const outDir = path.join(os.tmpdir(), `tracemill-session-pass-${process.pid}`);
    fs.mkdirSync(outDir, { recursive: true });
    const seen = live.size;
    const run = extractFeatures(pcap, { outDir });
    expect(live.size).toBe(seen + 1);
    expect((await run).summary.packets.read).toBe(100);
    await vi.waitFor(() => expect(live.size).toBe(seen), { timeout: 1000 });
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it("starts no worker and records no digest when none is wanted, the CSV the same", async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-session-pass-"));
    try {
      const hashed = await extractFeatures(pcap, { outDir, csvPath: path.join(outDir, "hashed.csv") });
      await vi.waitFor(() => expect(live.size).toBe(0), { timeout: 1000 });
      const run = extractFeatures(pcap, { outDir, digest: false });
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
