// The parts of a split capture read as one: the same rows as the whole capture (sessions go on across the split),
// each part in the summary, and a damaged part that does not stop the parts after it.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractImages } from "../images/extract-images.js";
import { extractIpt } from "../ipt/extract-ipt.js";
import { labelCapture } from "../label/label-capture.js";
import { splitPcap } from "../testing/split-pcap.js";
import { extractFeatures } from "./extract-features.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const whole = path.join(repo, "test/fixtures/capture/benign/wikipedia-browse.pcap");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-split-"));
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

const split = (at: number) => splitPcap(whole, at);

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

  it("gives ipt, images and label the whole capture's outputs too, and refuses a provenance record for parts", async () => {
    const [first, second] = split(40);
    const parts = ["p-1.pcap", "p-2.pcap"].map((name) => path.join(dir, name));
    fs.writeFileSync(parts[0], first);
    fs.writeFileSync(parts[1], second);
    const outputs = async (
      name: string,
      file: string,
      run: (input: string | string[], outDir: string) => Promise<unknown>,
    ) => {
      const whole1 = fs.mkdtempSync(path.join(dir, `${name}-whole-`));
      const joined = fs.mkdtempSync(path.join(dir, `${name}-parts-`));
      await run(whole, whole1);
      await run(parts, joined);
      return [fs.readFileSync(path.join(whole1, file)), fs.readFileSync(path.join(joined, file))];
    };
    const [ipt, iptParts] = await outputs("ipt", "ipt.txt", (input, outDir) => extractIpt(input, {}, { outDir }));
    expect(iptParts.equals(ipt)).toBe(true);
    const [zip, zipParts] = await outputs("images", "images.zip", (input, outDir) =>
      extractImages(input, { flowsPerImage: 4 }, { outDir }),
    );
    expect(zipParts.equals(zip)).toBe(true);
    const [labelled, labelledParts] = await outputs("label", "labelled.csv", (input, outDir) =>
      labelCapture(input, { attacks: parts[1] }, { outDir }),
    );
    expect(labelledParts.equals(labelled)).toBe(true);
    expect(
      labelled
        .toString()
        .split("\n")
        .filter((row) => row.endsWith(",1")).length,
    ).toBeGreaterThan(0);
    await expect(
      labelCapture(parts, { provenance: path.join(dir, "x.provenance.jsonl") }, { outDir: dir }),
    ).rejects.toThrow(/a provenance record labels one merged capture/);
  });
});
