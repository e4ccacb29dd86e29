// The parts of a split capture read as one: the same rows as the whole capture (sessions go on across the split),
// each part in the summary, and a damaged part that does not stop the parts after it.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractFeatures } from "./extract-features.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const whole = path.join(repo, "test/fixtures/features/captures/wikipedia-browse.pcap");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-split-"));
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

/** The whole capture (little-endian pcap) as two files, each with the file header, split before record `at`. */
function split(at: number): [Buffer, Buffer] {
  const bytes = fs.readFileSync(whole);
  let offset = 24;
  for (let record = 0; record < at; record++) offset += 16 + bytes.readUInt32LE(offset + 8);
  return [bytes.subarray(0, offset), Buffer.concat([bytes.subarray(0, 24), bytes.subarray(offset)])];
}

async function extract(name: string, inputs: string | string[]) {
  const outDir = fs.mkdtempSync(path.join(dir, `${name}-`));
  const { summary } = await extractFeatures(inputs, { outDir });
  return { summary, csv: fs.readFileSync(path.join(outDir, "features.csv"), "utf8") };
}

describe("a capture given in parts", () => {
  it("gives the whole capture's rows, with sessions that span the split, and names each part", async () => {
    const [first, second] = split(68);
    const parts = ["part-1.pcap", "part-2.pcap"].map((name) => path.join(dir, name));
    fs.writeFileSync(parts[0], first);
    fs.writeFileSync(parts[1], second);
    const reference = await extract("whole", whole);
    const joined = await extract("joined", parts);
    expect(joined.csv).toBe(reference.csv);
    expect(joined.summary.packets).toEqual(reference.summary.packets);
    expect(joined.summary.sessions).toEqual(reference.summary.sessions);
    expect(joined.summary.inputs).toEqual([
      { name: "part-1.pcap", bytes: first.length, sha256: sha256(first), format: "pcap" },
      { name: "part-2.pcap", bytes: second.length, sha256: sha256(second), format: "pcap" },
    ]);
    expect(joined.summary.input).toEqual(joined.summary.inputs![0]);
    expect(reference.summary.inputs).toBeUndefined();
    // Read apart, the sessions that span the split are cut in two: more rows than the whole capture has.
    const apart = (await extract("a", parts[0])).summary.csv.rows + (await extract("b", parts[1])).summary.csv.rows;
    expect(apart).toBeGreaterThan(reference.summary.csv.rows);
  });

  it("keeps a damaged part's packets before the damage and reads the parts after it", async () => {
    const [first, second] = split(68);
    const cut = path.join(dir, "cut-1.pcap");
    const after = path.join(dir, "after-2.pcap");
    fs.writeFileSync(cut, first.subarray(0, first.length - 10));
    fs.writeFileSync(after, second);
    const joined = await extract("damaged", [cut, after]);
    expect(joined.summary.complete).toBe(false);
    expect(joined.summary.damage!.message.startsWith(`${cut}: damaged capture at byte `)).toBe(true);
    // Every packet but the cut one was read: the second part's too.
    const reference = await extract("whole-again", whole);
    expect(joined.summary.packets.read).toBe(reference.summary.packets.read - 1);
    expect(joined.summary.inputs!.map((input) => input.bytes)).toEqual([first.length - 10, second.length]);
  });

  it("refuses --threads with several parts", async () => {
    await expect(extractFeatures([whole, whole], { outDir: dir, threads: 2 })).rejects.toThrow(
      /--threads reads one capture/,
    );
  });
});
