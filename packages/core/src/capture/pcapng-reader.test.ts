// pcapng specifics built byte by byte: timestamp resolutions and offsets, sections in both byte orders,
// the three packet blocks, options, skipped blocks and each kind of damage.
import { describe, expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import { concat } from "../testing/index.js";
import { PcapngReader } from "./pcapng-reader.js";
import { encodeUtf8 } from "./utf8.js";

type Option = [code: number, value: Uint8Array];

/** A block: type, length, body (padded), options, length; in the given byte order. */
function block(type: number, body: Uint8Array, options: Option[] = [], le = true, trailer?: number): Uint8Array {
  const padded = (body.length + 3) & ~3;
  const optionBytes = options.length ? options.reduce((n, [, v]) => n + 4 + ((v.length + 3) & ~3), 4) : 0;
  const total = 12 + padded + optionBytes;
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, type, le);
  v.setUint32(4, total, le);
  out.set(body, 8);
  let at = 8 + padded;
  for (const [code, value] of options) {
    v.setUint16(at, code, le);
    v.setUint16(at + 2, value.length, le);
    out.set(value, at + 4);
    at += 4 + ((value.length + 3) & ~3);
  }
  v.setUint32(total - 4, trailer ?? total, le);
  return out;
}

function words(le: boolean, ...fields: [bytes: 2 | 4, value: number][]): Uint8Array {
  const out = new Uint8Array(fields.reduce((n, [b]) => n + b, 0));
  const v = new DataView(out.buffer);
  let at = 0;
  for (const [bytes, value] of fields) {
    if (bytes === 2) v.setUint16(at, value, le);
    else v.setUint32(at, value, le);
    at += bytes;
  }
  return out;
}

const text = (s: string) => encodeUtf8(s);
const shb = (le = true, options: Option[] = []) =>
  block(0x0a0d0d0a, concat(words(le, [4, 0x1a2b3c4d], [2, 1], [2, 0], [4, 0xffffffff], [4, 0xffffffff])), options, le);
const idb = (linkType: number, snaplen: number, options: Option[] = [], le = true) =>
  block(1, words(le, [2, linkType], [2, 0], [4, snaplen]), options, le);
const epb = (iface: number, hi: number, lo: number, data: Uint8Array, options: Option[] = [], le = true) =>
  block(6, concat(words(le, [4, iface], [4, hi], [4, lo], [4, data.length], [4, data.length + 10]), data), options, le);
const payload = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);

function read(bytes: Uint8Array) {
  const reader = new PcapngReader();
  reader.push(bytes);
  reader.end();
  const packets: { tsSec: number; tsNsec: number; iface: number; linkType: number; len: number; comments: string[] }[] =
    [];
  let error: unknown;
  try {
    for (let p = reader.next(); p !== null; p = reader.next()) {
      packets.push({
        tsSec: p.tsSec,
        tsNsec: p.tsNsec,
        iface: p.interfaceIndex,
        linkType: p.linkType,
        len: p.capturedLength,
        comments: reader.packetComments(),
      });
    }
  } catch (e) {
    error = e;
  }
  return { reader, packets, error };
}

describe("pcapng timestamps", () => {
  it("splits ticks of every if_tsresol exactly: 10^-3, 10^-6 (default), 10^-9, 2^-20, 2^-40", () => {
    const ticks = 0x0123456789abn;
    const hi = Number(ticks >> 32n);
    const lo = Number(ticks & 0xffffffffn);
    const file = concat(
      shb(),
      idb(1, 0, [[9, Uint8Array.of(3)]]),
      idb(1, 0),
      idb(1, 0, [[9, Uint8Array.of(9)]]),
      idb(1, 0, [[9, Uint8Array.of(0x80 | 20)]]),
      idb(1, 0, [[9, Uint8Array.of(0x80 | 40)]]),
      ...[0, 1, 2, 3, 4].map((i) => epb(i, hi, lo, payload(20))),
    );
    const { packets, error } = read(file);
    expect(error).toBeUndefined();
    const units = [1000n, 1_000_000n, 1_000_000_000n, 1n << 20n, 1n << 40n];
    expect(packets.map((p) => [p.tsSec, p.tsNsec])).toEqual(
      units.map((u) => [Number(ticks / u), Number(((ticks % u) * 1_000_000_000n) / u)]),
    );
  });

  it("keeps nanoseconds of present-day ns timestamps, beyond 2^53 ticks", () => {
    const ticks = 1_700_000_123_987_654_321n;
    const file = concat(
      shb(),
      idb(1, 0, [[9, Uint8Array.of(9)]]),
      epb(0, Number(ticks >> 32n), Number(ticks & 0xffffffffn), payload(4)),
    );
    expect(read(file).packets[0]).toMatchObject({ tsSec: 1_700_000_123, tsNsec: 987_654_321 });
  });

  it("adds if_tsoffset seconds", () => {
    const offset = new Uint8Array(8);
    new DataView(offset.buffer).setBigInt64(0, 1_600_000_000n, true);
    const file = concat(shb(), idb(1, 0, [[14, offset]]), epb(0, 0, 2_500_000, payload(4)));
    expect(read(file).packets[0]).toMatchObject({ tsSec: 1_600_000_002, tsNsec: 500_000_000 });
  });
});

describe("pcapng structure", () => {
  it("reads sections in both byte orders, numbering interfaces across sections", () => {
    const file = concat(
      shb(true, [
        [1, text("first section")],
        [4, text("tester 1.0")],
      ]),
      idb(1, 65535, [
        [2, text("eth0")],
        [3, text("uplink")],
      ]),
      epb(0, 0, 1, payload(30)),
      shb(false, [[1, text("second section")]]),
      idb(101, 1500, [], false),
      idb(113, 1500, [], false),
      epb(1, 0, 2, payload(40), [], false),
      epb(0, 0, 3, payload(50), [], false),
    );
    const { reader, packets, error } = read(file);
    expect(error).toBeUndefined();
    expect(packets.map((p) => [p.iface, p.linkType, p.len])).toEqual([
      [0, 1, 30],
      [2, 113, 40],
      [1, 101, 50],
    ]);
    const info = reader.info;
    expect(info.byteOrder).toBe("mixed");
    expect(info.sections.map((s) => s.byteOrder)).toEqual(["little-endian", "big-endian"]);
    expect(info.comments).toEqual(["first section", "second section"]);
    expect(info.sections[0].application).toBe("tester 1.0");
    expect(info.interfaces[0]).toMatchObject({ name: "eth0", description: "uplink", snaplen: 65535, section: 0 });
    expect(info.interfaces.map((i) => [i.index, i.section, i.linkType])).toEqual([
      [0, 0, 1],
      [1, 1, 101],
      [2, 1, 113],
    ]);
  });

  it("reads obsolete and simple packet blocks; a simple packet keeps the previous timestamp", () => {
    const opb = block(2, concat(words(true, [2, 0], [2, 0], [4, 0], [4, 7_000_001], [4, 12], [4, 60]), payload(12)));
    const spb = block(3, concat(words(true, [4, 100]), payload(100)));
    const file = concat(shb(), idb(1, 64), opb, spb);
    const { packets, error } = read(file);
    expect(error).toBeUndefined();
    expect(packets).toMatchObject([
      { tsSec: 7, tsNsec: 1000, len: 12 },
      { tsSec: 7, tsNsec: 1000, len: 64, iface: 0 },
    ]);
  });

  it("skips unknown, statistics and custom blocks and counts them", () => {
    const file = concat(
      shb(),
      idb(1, 0),
      block(5, payload(20)),
      block(0x40000bad, payload(9)),
      epb(0, 0, 1, payload(8)),
    );
    const { reader, packets } = read(file);
    expect(packets).toHaveLength(1);
    expect(reader.info.skippedRecords).toBe(2);
  });

  it("gives each packet's comments", () => {
    const file = concat(
      shb(),
      idb(1, 0),
      epb(0, 0, 1, payload(5), [
        [1, text("first")],
        [1, text("zweite ✓")],
      ]),
      epb(0, 0, 2, payload(6)),
    );
    expect(read(file).packets.map((p) => p.comments)).toEqual([["first", "zweite ✓"], []]);
  });
});

describe("pcapng damage", () => {
  const good = concat(shb(), idb(1, 0), epb(0, 0, 1, payload(16)));
  const cases: [string, Uint8Array, RegExp, number][] = [
    ["a trailer that disagrees", concat(good, block(6, payload(28), [], true, 999)), /block length lies/, good.length],
    [
      "an impossible length",
      concat(good, words(true, [4, 6], [4, 13], [4, 0])),
      /block length 13 is impossible/,
      good.length,
    ],
    ["an undeclared interface", concat(good, epb(3, 0, 1, payload(4))), /refers to interface 3/, good.length],
    [
      "a captured length beyond its block",
      concat(good, block(6, words(true, [4, 0], [4, 0], [4, 0], [4, 400], [4, 400]))),
      /runs past the end/,
      good.length,
    ],
    [
      "an unsupported version",
      concat(good, block(0x0a0d0d0a, words(true, [4, 0x1a2b3c4d], [2, 2], [2, 0], [4, 0], [4, 0]))),
      /version 2\.0/,
      good.length,
    ],
    [
      "an option running past its block",
      concat(
        good,
        idb(1, 0, [[2, payload(8)]]).map((b, i) => (i === 18 ? 200 : b)),
      ),
      /option 2 of length 200/,
      good.length,
    ],
  ];
  it.each(cases)("stops at %s with DAMAGED_INPUT naming the offset", (_, bytes, reason, offset) => {
    const { packets, error } = read(bytes);
    expect(packets).toHaveLength(1);
    expect(isTracemillError(error)).toBe(true);
    expect(error).toMatchObject({ code: "DAMAGED_INPUT", context: { offset } });
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).toContain(`at byte ${offset} (after 1 packet)`);
  });

  it("gives BAD_INPUT when damage comes before any packet", () => {
    const { error } = read(concat(shb(), block(6, payload(8), [], true, 5)));
    expect(error).toMatchObject({ code: "BAD_INPUT" });
  });
});
