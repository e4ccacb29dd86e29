// A dataset job's inputs staged under their users' names (distinct within a folder, a merge's record beside its
// capture), and a build that fails leaving its output directory as empty as it found it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { datasetParams } from "@tracemill/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { runDataset, stageDatasetInputs } from "./dataset-run.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-dataset-run-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A file `name` in its own folder (as the worker reaches each input), holding `text`. */
function input(root: string, folder: string, name: string, text: string): string {
  fs.mkdirSync(path.join(root, folder), { recursive: true });
  const file = path.join(root, folder, name);
  fs.writeFileSync(file, text);
  return file;
}

const beside = (capture: string) => `${capture.replace(/\.pcap$/, "")}.provenance.jsonl`;

describe("stageDatasetInputs", () => {
  it("names each input as uploaded, distinct within its folder, in the order of their positions", () => {
    const root = tempDir();
    const out = tempDir();
    const first = input(root, "1", "monday.pcap", "first");
    const second = input(root, "2", "monday.pcap", "second");
    const third = input(root, "3", "tuesday.pcap", "third");
    const record = input(root, "4", "provenance", "record");
    const attack = input(root, "5", "monday.pcap", "attack");
    const classification = input(root, "6", "classification.config", "classes");
    const staged = stageDatasetInputs(
      out,
      {
        capture: [
          { path: third, position: 2 },
          { path: first, position: 0, sha256: "a".repeat(64) },
          { path: second, position: 1 },
        ],
        provenance: [{ path: record, position: 1 }],
        attacks: [{ path: attack, position: 0 }],
      },
      classification,
      beside,
    );
    expect(staged.captures).toEqual(["captures/monday.pcap", "captures/monday (2).pcap", "captures/tuesday.pcap"]);
    expect(staged.attacks).toEqual(["attacks/monday.pcap"]);
    expect(staged.alerts).toEqual([]);
    expect(staged.classification).toBe("classification/classification.config");
    const read = (file: string) => fs.readFileSync(path.join(out, file), "utf8");
    expect(staged.captures.map(read)).toEqual(["first", "second", "third"]);
    expect(read("captures/monday (2).provenance.jsonl")).toBe("record");
    expect(read("attacks/monday.pcap")).toBe("attack");
    expect(fs.lstatSync(path.join(out, "captures/monday.pcap")).isSymbolicLink()).toBe(true);
    expect(staged.hashes).toEqual({ [path.join(out, "captures/monday.pcap")]: "a".repeat(64) });
    expect(staged.staged.map((dir) => path.relative(out, dir)).sort()).toEqual([
      "attacks",
      "captures",
      "classification",
    ]);
  });
});

describe("runDataset", () => {
  it("leaves nothing in the output directory when the build fails", async () => {
    const root = tempDir();
    const out = tempDir();
    const notACapture = input(root, "1", "notes.pcap", "plain text, no packets\n");
    await expect(
      runDataset(datasetParams.parse({}), { capture: [{ path: notACapture, position: 0 }] }, undefined, {
        outDir: out,
      }),
    ).rejects.toThrow(/notes\.pcap/);
    expect(fs.readdirSync(out)).toEqual([]);
    // The input itself is untouched: only the links to it went.
    expect(fs.readFileSync(notACapture, "utf8")).toBe("plain text, no packets\n");
  });

  it("leaves nothing in the output directory when the job is cancelled", async () => {
    const root = tempDir();
    const out = tempDir();
    const file = input(root, "1", "monday.pcap", "not read: the run is cancelled first");
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(
      runDataset(datasetParams.parse({}), { capture: [{ path: file, position: 0 }] }, undefined, {
        outDir: out,
        signal: cancelled.signal,
      }),
    ).rejects.toThrow(/abort/i);
    expect(fs.readdirSync(out)).toEqual([]);
  });
});
