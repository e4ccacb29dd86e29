// The raw background merge against the packet-by-packet merge (mergeOrdered over InOrderSource): the same
// bytes and provenance for an out-of-order background read in small chunks, with ties and interleaved attacks, also
// over 10,000 synthetic records (many ties and late ones, stretches cut by the back-pressure checks); read through
// the capture input, or as the merge reads a plain background: ahead, feeding the hashing worker.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { InputDigests } from "../hashing/index.js";
import { CaptureCursor, CaptureInput } from "../input/index.js";
import { openCaptureWriter } from "../output/index.js";
import { ProvenanceWriter } from "../provenance/provenance-writer.js";
import { InOrderSource } from "./late-packets.js";
import { mergeOrdered } from "./merge-loop.js";
import type { MergeSource } from "./merge-source.js";
import { copiesVerbatim } from "./output-plan.js";
import { mergeRawBackground } from "./raw-background-merge.js";
import { type CaptureScan, scanCapture } from "./scan.js";
import { fromNs, type Timestamp, toNs } from "./timestamp.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-raw-merge-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of a little-endian pcap with the given records (0-based) swapped pairwise. */
function swapped(file: Buffer, pairs: [number, number][]): Buffer {
  const records: Buffer[] = [];
  for (let at = 24; at < file.length; at += 16 + file.readUInt32LE(at + 8)) {
    records.push(file.subarray(at, at + 16 + file.readUInt32LE(at + 8)));
  }
  for (const [a, b] of pairs) [records[a], records[b]] = [records[b], records[a]];
  return Buffer.concat([file.subarray(0, 24), ...records]);
}

const header = (scan: CaptureScan) => ({ snaplen: scan.info.interfaces[0].snaplen, linkType: 1 });
const ordered = (cursor: CaptureCursor, scan: CaptureScan): MergeSource =>
  scan.late.length === 0 ? cursor : new InOrderSource(cursor, scan.late, scan.lateIndices);

async function byPackets(bg: string, atk: string, scans: CaptureScan[], shift: Timestamp, name: string) {
  const out = await openCaptureWriter(path.join(dir, `${name}.pcap`), { format: "pcap", ...header(scans[0]) });
  const record = new ProvenanceWriter(path.join(dir, `${name}.jsonl`), provenanceHeader);
  const cursors = [
    await CaptureCursor.open(bg, { name: "bg", damage: "throw" }),
    await CaptureCursor.open(atk, { name: "atk", damage: "throw" }),
  ];
  await mergeOrdered(ordered(cursors[0], scans[0]), ordered(cursors[1], scans[1]), shift, (p, input) => {
    out.write(p);
    record.add(input, p.index);
  });
  await Promise.all(cursors.map((c) => c.close()));
  record.finish(provenanceHeader);
  await out.close();
  return [fs.readFileSync(path.join(dir, `${name}.pcap`)), fs.readFileSync(path.join(dir, `${name}.jsonl`), "utf8")];
}

async function byRecords(
  bg: string,
  atk: string,
  scans: CaptureScan[],
  shift: Timestamp,
  chunkBytes: number,
  mode: "synchronous" | "read ahead" | "fed",
) {
  const name = `raw-${chunkBytes}-${mode.replace(/\W+/g, "-")}`;
  const out = await openCaptureWriter(path.join(dir, `${name}.pcap`), { format: "pcap", ...header(scans[0]) });
  const record = new ProvenanceWriter(path.join(dir, `${name}.jsonl`), provenanceHeader);
  // Fed: the slots are the chunk size; the merge feeds the ring until it runs ahead, then the worker reads alone.
  const feed =
    mode === "fed" ? new InputDigests([bg, atk], [undefined, "0".repeat(64)], { slotBytes: chunkBytes }) : null;
  const input = await CaptureInput.open(bg, chunkBytes, { synchronous: mode !== "read ahead", tap: feed?.tap(0) });
  const cursor = await CaptureCursor.open(atk, { name: "atk", damage: "throw" });
  const written = await mergeRawBackground(input, scans[0], ordered(cursor, scans[1]), shift, {
    out,
    record,
    prepareAttack: () => {},
    onProgress: () => {},
  });
  await Promise.all([input.close(), cursor.close()]);
  if (feed) {
    const [digest] = await feed.all();
    feed.close();
    expect(digest).toBe(createHash("sha256").update(fs.readFileSync(bg)).digest("hex"));
  }
  record.finish(provenanceHeader);
  await out.close();
  expect(written).toBe(scans[0].packets + scans[1].packets);
  return [fs.readFileSync(path.join(dir, `${name}.pcap`)), fs.readFileSync(path.join(dir, `${name}.jsonl`), "utf8")];
}

const provenanceHeader = {} as ConstructorParameters<typeof ProvenanceWriter>[1];

describe("mergeRawBackground", () => {
  it.each([
    [50, "read ahead"],
    [333, "synchronous"],
    [333, "fed"],
    [4096, "read ahead"],
    [4096, "synchronous"],
    [1 << 20, "synchronous"],
  ] as const)("equals the packet-by-packet merge in %i-byte chunks (%s)", async (chunkBytes, mode) => {
    const bg = path.join(dir, "bg.pcap");
    const atk = path.join(dir, "atk.pcap");
    const wikipedia = fs.readFileSync(path.join(fixtures, "benign/wikipedia-browse.pcap"));
    fs.writeFileSync(
      bg,
      swapped(wikipedia, [
        [3, 9],
        [60, 61],
        [100, 130],
      ]),
    );
    fs.writeFileSync(atk, swapped(fs.readFileSync(path.join(fixtures, "attacks/eternalblue-scan.pcap")), [[4, 7]]));
    const scans = [await scanCapture(bg, "bg", 1 << 20), await scanCapture(atk, "atk", 1 << 20)];
    expect(scans[0].outOfOrderPackets).toBeGreaterThan(0);
    expect(copiesVerbatim(scans[0].info, false)).toBe(true);
    // The attacks' first packet lands on the background's packet 50: a tie, then interleaving.
    const target = (await nthTime(bg, 50)) - toNs(scans[1].first!);
    const shift = fromNs(target);
    const expected = await byPackets(bg, atk, scans, shift, "reference");
    // Each merge shifts the held late attack packets in place: the second one gets fresh scans.
    const again = [await scanCapture(bg, "bg", 1 << 20), await scanCapture(atk, "atk", 1 << 20)];
    const [bytes, provenance] = await byRecords(bg, atk, again, shift, chunkBytes, mode);
    expect(provenance).toBe(expected[1]);
    expect(Buffer.compare(bytes as Buffer, expected[0] as Buffer)).toBe(0);
  });

  it("equals the packet-by-packet merge over thousands of records: ties, late ones, back-pressure checks", async () => {
    let seed = 11;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    // Microsecond pcap of `count` records 0–2 µs apart (many ties), some pulled up to 30 µs late.
    const pcap = (count: number, mark: number) => {
      const parts = [Buffer.from("d4c3b2a1020004000000000000000000ffff000001000000", "hex")];
      let us = 1_700_000_000_000_000 + rand(50);
      for (let i = 0; i < count; i++) {
        us += rand(3);
        const late = rand(40) === 0 ? rand(30) : 0;
        const record = Buffer.alloc(16 + 14 + (i % 5));
        record.writeUInt32LE(Math.floor((us - late) / 1e6), 0);
        record.writeUInt32LE((us - late) % 1e6, 4);
        record.writeUInt32LE(record.length - 16, 8);
        record.writeUInt32LE(record.length - 16, 12);
        record.writeUInt32LE(i, 16);
        record[20] = mark;
        parts.push(record);
      }
      return Buffer.concat(parts);
    };
    const bg = path.join(dir, "many-bg.pcap");
    const atk = path.join(dir, "many-atk.pcap");
    fs.writeFileSync(bg, pcap(10_000, 1));
    fs.writeFileSync(atk, pcap(9_000, 2));
    const scans = [await scanCapture(bg, "bg", 1 << 20), await scanCapture(atk, "atk", 1 << 20)];
    expect(scans[0].outOfOrderPackets).toBeGreaterThan(100);
    const shift = fromNs(toNs(scans[0].first!) - toNs(scans[1].first!) + 1_000n);
    const expected = await byPackets(bg, atk, scans, shift, "many-reference");
    for (const [chunkBytes, mode] of [
      [777, "read ahead"],
      [1 << 16, "synchronous"],
      [4096, "fed"],
    ] as const) {
      const again = [await scanCapture(bg, "bg", 1 << 20), await scanCapture(atk, "atk", 1 << 20)];
      const [bytes, provenance] = await byRecords(bg, atk, again, shift, chunkBytes, mode);
      expect(provenance).toBe(expected[1]);
      expect(Buffer.compare(bytes as Buffer, expected[0] as Buffer)).toBe(0);
    }
  });

  it("accepts only little-endian pcap in the output's resolution", () => {
    const info = { format: "pcap", byteOrder: "little-endian", interfaces: [{ unitsPerSecond: 1e6 }] };
    expect(copiesVerbatim(info, false)).toBe(true);
    expect(copiesVerbatim(info, true)).toBe(false);
    expect(copiesVerbatim({ ...info, byteOrder: "big-endian" }, false)).toBe(false);
    expect(copiesVerbatim({ ...info, format: "pcapng" }, false)).toBe(false);
  });
});

async function nthTime(file: string, n: number): Promise<bigint> {
  const cursor = await CaptureCursor.open(file, { name: "bg", damage: "throw" });
  try {
    for (;;) {
      const p = cursor.next();
      if (p?.index === n) return toNs({ sec: p.tsSec, nsec: p.tsNsec });
      if (!p && !(await cursor.fill())) throw new Error(`no packet ${n}`);
    }
  } finally {
    await cursor.close();
  }
}
