// The raw pcap record scan against the reader: same statistics and late packets whatever the chunking, and
// giving up (for the reader to report) on damage, a truncated end, or an input that is not pcap.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openPacketSource } from "@tracemill/core";
import { describe, expect, it } from "vitest";
import { LatePackets } from "./late-packets.js";
import { PcapRecordScan } from "./pcap-scan.js";
import { TimeStats } from "./time-stats.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const eternalblue = fs.readFileSync(path.join(fixtures, "attacks/eternalblue-scan.pcap"));

function byReader(bytes: Uint8Array) {
  const late = new LatePackets(1 << 30, "x");
  const stats = new TimeStats(late);
  const source = openPacketSource(bytes);
  source.end();
  for (let p = source.next(); p; p = source.next()) stats.add(p, source);
  return facts(stats, late);
}

function byScan(bytes: Uint8Array, chunkBytes: number) {
  const late = new LatePackets(1 << 30, "x");
  const stats = new TimeStats(late);
  let scan: PcapRecordScan | null = null;
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    const chunk = new Uint8Array(bytes.subarray(at, at + chunkBytes));
    if (scan) scan.push(chunk);
    else scan = PcapRecordScan.start(chunk, stats);
    if (!scan?.ok) return { facts: null, ok: false };
  }
  return { facts: facts(stats, late), ok: scan?.finish() ?? false };
}

/** The records (0-based) swapped pairwise: an out-of-order copy. */
function swapped(file: Buffer, pairs: [number, number][]): Buffer {
  const records: Buffer[] = [];
  for (let at = 24; at < file.length; at += 16 + file.readUInt32LE(at + 8)) {
    records.push(file.subarray(at, at + 16 + file.readUInt32LE(at + 8)));
  }
  for (const [a, b] of pairs) [records[a], records[b]] = [records[b], records[a]];
  return Buffer.concat([file.subarray(0, 24), ...records]);
}

function facts(stats: TimeStats, held: LatePackets) {
  const { packets, firstSec, firstNsec, minSec, minNsec, maxSec, maxNsec, outOfOrderPackets, maxLatenessNs } = stats;
  const late = held.sorted();
  return {
    ...{ packets, firstSec, firstNsec, minSec, minNsec, maxSec, maxNsec, outOfOrderPackets, maxLatenessNs },
    ...{ microsecondExact: stats.microsecondExact, linkTypes: [...stats.linkTypes], lateIndices: stats.lateIndices },
    late: late.map((p) => [
      p.index,
      p.fileOffset,
      p.tsSec,
      p.tsNsec,
      p.originalLength,
      Buffer.from(p.data).toString("hex"),
    ]),
  };
}

describe("PcapRecordScan", () => {
  const disordered = swapped(eternalblue, [
    [2, 5],
    [15, 16],
  ]);

  it.each([30, 97, 1000, 1 << 22])("matches the reader in %i-byte chunks, late packets included", (chunkBytes) => {
    const expected = byReader(disordered);
    expect(expected.outOfOrderPackets).toBeGreaterThan(0);
    const { facts, ok } = byScan(disordered, chunkBytes);
    expect(ok).toBe(true);
    expect(facts).toEqual(expected);
  });

  it("gives up on a truncated end, a damaged record and a non-pcap input", () => {
    expect(byScan(eternalblue.subarray(0, eternalblue.length - 3), 1000).ok).toBe(false);
    const damaged = Buffer.from(eternalblue);
    damaged.writeUInt32LE(0x7fffffff, 24 + 8);
    expect(byScan(damaged, 1000).ok).toBe(false);
    expect(byScan(fs.readFileSync(path.join(fixtures, "attacks/dvwa-web-attacks.pcapng")), 1 << 20).ok).toBe(false);
    expect(byScan(eternalblue.subarray(0, 10), 1000).ok).toBe(false);
  });
});
