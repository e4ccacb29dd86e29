// Mutated captures (fixed seed) through the sniffer and every reader — pcap in both byte orders and resolutions,
// pcapng, ERF with a provenance record — fed in random chunk sizes: each read ends with its packets or a one-line
// TracemillError (never another error, never a hang, never more memory than the input plus one sane record), and a
// capture cut short is never read as complete.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import { concat, seededRandom } from "../testing/index.js";
import { MAX_PACKET_BYTES } from "./damage.js";
import { openPacketSource, SNIFF_BYTES, sniffCaptureFormat } from "./sniff.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const load = (f: string) => new Uint8Array(fs.readFileSync(path.join(fixtures, f)));

const pcapLeUs = load("attacks/eternalblue-scan.pcap");
const pcapLeNs = load("formats/pcap-le-ns_sll_tcp-handshake-nano.pcap");
const erf = load("formats/erf_100-packets.erf");
/** Every reader and both byte orders and resolutions of pcap; the big-endian ns file and the ERF meta built here. */
const seeds: Record<string, Uint8Array> = {
  "pcap le µs": pcapLeUs,
  "pcap be µs": load("formats/pcap-be-us_pptp.pcap"),
  "pcap le ns": pcapLeNs,
  "pcap be ns": pcapToBigEndian(pcapLeNs),
  "pcapng be": load("formats/pcapng-be_complex.pcapng"),
  "pcapng multi-interface": load("formats/pcapng_multi-interface.pcapng"),
  "pcapng le suite": load("formats/pcapng-suite/le/test202.pcapng"),
  "erf + meta": concat(erfMeta(erf), erf),
};
const names = Object.keys(seeds);

/** The same capture with big-endian headers (what a big-endian host writes). */
function pcapToBigEndian(le: Uint8Array): Uint8Array {
  const out = le.slice();
  const from = new DataView(le.buffer, le.byteOffset, le.byteLength);
  const to = new DataView(out.buffer);
  for (const [at, size] of [
    [0, 4],
    [4, 2],
    [6, 2],
    [8, 4],
    [12, 4],
    [16, 4],
    [20, 4],
  ]) {
    if (size === 4) to.setUint32(at, from.getUint32(at, true), false);
    else to.setUint16(at, from.getUint16(at, true), false);
  }
  for (let p = 24; p + 16 <= le.length; p += 16 + from.getUint32(p + 8, true)) {
    for (let f = 0; f < 16; f += 4) to.setUint32(p + f, from.getUint32(p + f, true), false);
  }
  return out;
}

/** An ERF provenance (type 27) record with a Host ID extension header, timed like the first record of `erfBytes`. */
function erfMeta(erfBytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(16 + 8 + 8);
  const v = new DataView(out.buffer);
  out.set(erfBytes.subarray(0, 8), 0);
  v.setUint8(8, 27 | 0x80);
  v.setUint16(10, out.length, false);
  v.setUint8(16, 17);
  v.setUint16(24, 0xff00, false);
  v.setUint16(26, 4, false);
  return out;
}

/**
 * Where records start and end, walked by hand from the length fields (not by the readers): a cut there leaves a
 * whole capture, a cut anywhere else a damaged one.
 */
function boundaries(bytes: Uint8Array): number[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  const magic = v.getUint32(0, false);
  if (magic === 0x0a0d0d0a) {
    let le = true;
    for (let p = 0; p < bytes.length; ) {
      if (v.getUint32(p, false) === 0x0a0d0d0a) le = v.getUint32(p + 8, false) === 0x4d3c2b1a;
      p += v.getUint32(p + 4, le);
      out.push(p);
    }
  } else if ([0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1].includes(magic)) {
    const le = magic === 0xd4c3b2a1 || magic === 0x4d3cb2a1;
    for (let p = 24; p <= bytes.length; p += 16 + v.getUint32(p + 8, le)) {
      out.push(p);
      if (p === bytes.length) break;
    }
  } else {
    for (let p = 0; p < bytes.length; ) {
      p += v.getUint16(p + 10, false);
      out.push(p);
    }
  }
  return out;
}

const INTERESTING = [0, 1, 12, 15, 16, 17, 0xff, 0xffff, 0x10000, 0x3ff0000, 0x7fffffff, 0x80000000, 0xffffffff];

function mutate(input: Uint8Array, rnd: () => number): Uint8Array {
  let bytes: Uint8Array = input.slice();
  const pick = (n: number) => Math.floor(rnd() * n);
  const edits = 1 + pick(4);
  for (let e = 0; e < edits && bytes.length > 0; e++) {
    const at = pick(bytes.length);
    const kind = pick(6);
    if (kind === 0) bytes[at] ^= 1 << pick(8);
    else if (kind === 1) bytes[at] = pick(256);
    else if (kind === 2 && bytes.length >= 4) {
      // A length (or type, or timestamp) field: an extreme, or its value nudged, in either byte order.
      const field = Math.min(at & ~3, bytes.length - 4);
      const v = new DataView(bytes.buffer);
      const le = rnd() < 0.5;
      const old = v.getUint32(field, le);
      const value = rnd() < 0.5 ? INTERESTING[pick(INTERESTING.length)] : old + pick(9) - 4;
      v.setUint32(field, value >>> 0, le);
    } else if (kind === 3) bytes = bytes.slice(0, at);
    else if (kind === 4)
      bytes = concat(bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + 1 + pick(64))));
    else {
      // A splice: bytes of another capture (or of this one) put in.
      const other = seeds[names[pick(names.length)]];
      const from = pick(other.length);
      bytes = concat(bytes.subarray(0, at), other.subarray(from, from + 1 + pick(200)), bytes.subarray(at));
    }
  }
  return bytes;
}

interface Outcome {
  packets: number;
  /** The error a damaged or refused read ended with; undefined when the read completed. */
  error?: unknown;
}

/** Reads `bytes` as the engine does: the sniffed first chunk, then chunks of `chunk` bytes. */
function readAll(bytes: Uint8Array, chunk: number): Outcome {
  let packets = 0;
  try {
    const source = openPacketSource(bytes.subarray(0, Math.min(bytes.length, Math.max(chunk, SNIFF_BYTES))));
    let at = Math.max(chunk, SNIFF_BYTES);
    for (;;) {
      for (let p = source.next(); p !== null; p = source.next()) {
        packets++;
        if (p.capturedLength > Math.min(bytes.length, MAX_PACKET_BYTES) || p.data.length !== p.capturedLength) {
          throw new Error(`packet ${p.index} claims ${p.capturedLength} bytes`);
        }
      }
      if (source.done) return { packets };
      if (at >= bytes.length) source.end();
      else source.push(bytes.subarray(at, at + chunk));
      at += chunk;
    }
  } catch (error) {
    return { packets, error };
  }
}

/** The error is a TracemillError saying, in one line, that the input is bad or damaged. */
function expectOneLineInputError(error: unknown, context: string): void {
  if (!isTracemillError(error)) throw new Error(`${context}: ${String(error)}`, { cause: error });
  expect(["BAD_INPUT", "DAMAGED_INPUT"], context).toContain(error.code);
  expect(error.message, context).not.toMatch(/\n/);
  expect(error.message.length, context).toBeGreaterThan(10);
}

describe("readers under mutation", () => {
  it("end 3000 mutated captures with their packets or a one-line TracemillError, in random chunk sizes", () => {
    const rnd = seededRandom(20261129);
    const started = Date.now();
    const outcomes = { clean: 0, damaged: 0, rejected: 0 };
    for (let i = 0; i < 3000; i++) {
      const name = names[i % names.length];
      const bytes = mutate(seeds[name], rnd);
      const chunk = rnd() < 0.4 ? 1 + Math.floor(rnd() * 64) : bytes.length;
      const { packets, error } = readAll(bytes, chunk);
      expect(packets).toBeLessThanOrEqual(bytes.length / 12);
      if (error === undefined) outcomes.clean++;
      else {
        expectOneLineInputError(error, `iteration ${i} (${name})`);
        if (isTracemillError(error) && error.code === "DAMAGED_INPUT") outcomes.damaged++;
        else outcomes.rejected++;
      }
    }
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(outcomes.damaged).toBeGreaterThan(200);
    expect(outcomes.rejected).toBeGreaterThan(100);
    expect(outcomes.clean).toBeGreaterThan(200);
    expect(process.memoryUsage().rss).toBeLessThan(1024 * 1024 * 1024);
  });

  it("never read a capture cut short as complete: whole only when cut at a record boundary", () => {
    const rnd = seededRandom(7);
    for (const name of names) {
      const bytes = seeds[name];
      const clean = readAll(bytes, bytes.length);
      expect(clean.error, name).toBeUndefined();
      const ends = boundaries(bytes);
      expect(ends.at(-1), name).toBe(bytes.length);
      // Record starts of the packets, from a whole read: a cut at boundary B keeps those that start before B.
      const starts: number[] = [];
      const source = openPacketSource(bytes);
      source.end();
      for (let p = source.next(); p !== null; p = source.next()) starts.push(p.fileOffset);
      const cuts = [
        ...ends.filter((e) => e < bytes.length),
        ...Array.from({ length: 60 }, () => 1 + Math.floor(rnd() * (bytes.length - 1))),
      ];
      for (const cut of cuts) {
        const chunk = rnd() < 0.5 ? 1 + Math.floor(rnd() * 100) : cut;
        const { packets, error } = readAll(bytes.subarray(0, cut), chunk);
        const boundary = ends.filter((e) => e <= cut).at(-1) ?? 0;
        const context = `${name} cut at ${cut} in chunks of ${chunk}`;
        expect(packets, context).toBe(starts.filter((s) => s < boundary).length);
        if (ends.includes(cut)) expect(error, context).toBeUndefined();
        else expectOneLineInputError(error, context);
      }
    }
  });

  it("sniffs mutated starts as a format or refuses them with a one-line TracemillError", () => {
    const rnd = seededRandom(99);
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const head = mutate(seeds[names[i % names.length]].subarray(0, 64 + Math.floor(rnd() * SNIFF_BYTES)), rnd);
      try {
        expect(["pcap", "pcapng", "erf"]).toContain(sniffCaptureFormat(head));
      } catch (error) {
        expectOneLineInputError(error, `sniff iteration ${i}`);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(50);
  });
});
