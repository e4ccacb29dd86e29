import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isTracemillError } from "@tracemill/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROVENANCE_FORMAT, type ProvenanceHeader, type ProvenanceRun } from "./provenance.js";
import { readAttackPacketRanges, readProvenance } from "./provenance-reader.js";
import { ProvenanceWriter } from "./provenance-writer.js";

const input = (id: 0 | 1) => ({
  id,
  role: id === 0 ? ("background" as const) : ("attacks" as const),
  file: `in${id}.pcap`,
  sha256: "0".repeat(64),
  bytes: 0,
  packets: 0,
  first: null,
  last: null,
  outOfOrderPackets: 0,
  maxLatenessNs: "0",
});

const pending: ProvenanceHeader = {
  format: PROVENANCE_FORMAT,
  version: 1,
  output: { file: "merged.pcap", format: "pcap" },
  inputs: [input(0), input(1)],
  shiftNs: "20",
  insertion: { mode: "midpoint", firstAttackPacketAt: null },
  mappings: [],
  tieOrder: "background-first",
};
/** The header finish() writes over the pending one: the digests known by then. */
const header: ProvenanceHeader = {
  ...pending,
  inputs: [
    { ...input(0), sha256: "ab".repeat(32) },
    { ...input(1), sha256: "cd".repeat(32) },
  ],
};

describe("provenance record", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "provenance-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function write(sequence: [0 | 1, number][]): string {
    const file = path.join(dir, "merged.provenance.jsonl");
    const writer = new ProvenanceWriter(file, pending);
    for (const [which, index] of sequence) writer.add(which, index);
    writer.finish(header);
    return file;
  }

  it("writes runs of consecutive packets and reads them back with the attack ranges", async () => {
    const file = write([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [0, 2],
      [1, 3],
      [1, 2],
    ]);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    const runs: ProvenanceRun[] = [];
    const { header: read, trailer } = await readProvenance(file, (run) => runs.push(run));
    expect(read).toEqual(header);
    expect(trailer).toEqual({ end: true, packets: 7, runs: 5 });
    expect(runs).toEqual([
      { input: 0, outputStart: 0, originalStart: 0, count: 2 },
      { input: 1, outputStart: 2, originalStart: 0, count: 2 },
      { input: 0, outputStart: 4, originalStart: 2, count: 1 },
      { input: 1, outputStart: 5, originalStart: 3, count: 1 },
      { input: 1, outputStart: 6, originalStart: 2, count: 1 },
    ]);
    expect((await readAttackPacketRanges(file)).ranges).toEqual([
      { start: 2, end: 4 },
      { start: 5, end: 7 },
    ]);
  });

  it.each([
    ["a record cut before its end line", (text: string) => text.split("\n").slice(0, -2).join("\n")],
    ["a run that skips output positions", (text: string) => text.replace("[0,2,2,1]", "[0,3,2,1]")],
    ["a wrong header", (text: string) => text.replace(PROVENANCE_FORMAT, "something-else")],
  ])("reports %s as damaged", async (_name, damage) => {
    const file = write([
      [0, 0],
      [1, 0],
      [0, 2],
    ]);
    fs.writeFileSync(file, damage(fs.readFileSync(file, "utf8")));
    const error = await readProvenance(file).catch((caught: unknown) => caught);
    expect(isTracemillError(error) && error.code).toBe("DAMAGED_INPUT");
  });

  it("refuses a final header of another length than the pending one", () => {
    const writer = new ProvenanceWriter(path.join(dir, "merged.provenance.jsonl"), pending);
    const longer: ProvenanceHeader = { ...header, shiftNs: "200" };
    expect(() => writer.finish(longer)).toThrow(/changed length/);
    writer.abort();
  });

  it("leaves nothing behind when aborted", () => {
    const file = path.join(dir, "merged.provenance.jsonl");
    const writer = new ProvenanceWriter(file, pending);
    writer.add(0, 0);
    writer.abort();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
