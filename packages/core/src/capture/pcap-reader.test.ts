// pcap specifics: byte orders and resolutions from the magic, lenient and insane captured lengths, header damage;
// the same packets and damage whether records lie whole in a chunk or span chunks.
import { describe, expect, it } from "vitest";
import { PcapReader } from "./pcap-reader.js";

function pcap(le: boolean, magic: number, snaplen: number, records: [sec: number, frac: number, caplen: number][]) {
  const size = 24 + records.reduce((n, [, , c]) => n + 16 + c, 0);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  v.setUint32(0, magic, le);
  v.setUint16(4, 2, le);
  v.setUint16(6, 4, le);
  v.setUint32(16, snaplen, le);
  v.setUint32(20, 228, le);
  let at = 24;
  for (const [sec, frac, caplen] of records) {
    v.setUint32(at, sec, le);
    v.setUint32(at + 4, frac, le);
    v.setUint32(at + 8, caplen, le);
    v.setUint32(at + 12, caplen + 4, le);
    out.fill(0x45, at + 16, at + 16 + caplen);
    at += 16 + caplen;
  }
  return out;
}

function read(bytes: Uint8Array) {
  const reader = new PcapReader();
  reader.push(bytes);
  reader.end();
  const packets: number[][] = [];
  try {
    for (let p = reader.next(); p !== null; p = reader.next()) {
      packets.push([p.tsSec, p.tsNsec, p.capturedLength, p.originalLength, p.linkType]);
    }
    return { reader, packets, error: undefined };
  } catch (error) {
    return { reader, packets, error };
  }
}

describe("pcap reader", () => {
  it("reads big-endian nanosecond files", () => {
    const { reader, packets } = read(pcap(false, 0xa1b23c4d, 65535, [[4000000000, 999_999_999, 20]]));
    expect(packets).toEqual([[4000000000, 999_999_999, 20, 24, 228]]);
    expect(reader.info).toMatchObject({ byteOrder: "big-endian", version: "2.4" });
    expect(reader.info.interfaces[0]).toMatchObject({ linkType: 228, snaplen: 65535, unitsPerSecond: 1e9 });
  });

  it("turns microseconds into nanoseconds", () => {
    expect(read(pcap(true, 0xa1b2c3d4, 65535, [[5, 123_456, 1]])).packets[0].slice(0, 2)).toEqual([5, 123_456_000]);
  });

  it("accepts captured lengths above a small snaplen, as libpcap does, up to 256 KiB", () => {
    expect(read(pcap(true, 0xa1b2c3d4, 64, [[1, 0, 1500]])).packets).toHaveLength(1);
    const { error, packets } = read(
      pcap(true, 0xa1b2c3d4, 64, [
        [1, 0, 100],
        [2, 0, 300_000],
      ]),
    );
    expect(packets).toHaveLength(1);
    expect(error).toMatchObject({
      code: "DAMAGED_INPUT",
      message: "damaged capture at byte 140 (after 1 packet): captured length 300000 is beyond the snapshot length 64",
    });
  });

  it("carries a fraction of a second or more into the seconds and counts it, in both resolutions", () => {
    // tcpdump and Wireshark read all three; by hand: 1 s + 1 000 000 µs = 2 s, 7 s + 4 294 967 295 µs = 4301 s +
    // 967 295 µs, 9 s + 2 500 000 000 ns = 11.5 s.
    const us = read(
      pcap(true, 0xa1b2c3d4, 0, [
        [1, 1_000_000, 4],
        [5, 999_999, 4],
        [7, 0xffffffff, 4],
      ]),
    );
    expect([us.error, us.packets.map((p) => p.slice(0, 2))]).toEqual([
      undefined,
      [
        [2, 0],
        [5, 999_999_000],
        [4301, 967_295_000],
      ],
    ]);
    expect(us.reader.info.warnings).toEqual([
      {
        code: "timestamp-carried",
        count: 2,
        offset: 24,
        message:
          "timestamp fraction 1000000 µs is not below one second: carried into the seconds (1 s + 1000000 µs = 2.000000000 s)",
      },
    ]);
    const ns = read(pcap(false, 0xa1b23c4d, 0, [[9, 2_500_000_000, 4]]));
    expect([ns.error, ns.packets[0].slice(0, 2), ns.reader.info.warnings[0].count]).toEqual([
      undefined,
      [11, 500_000_000],
      1,
    ]);
  });

  it("refuses a link-type field with reserved bits 16–25 set, naming the field; keeps the FCS bits out of the type", () => {
    const reserved = pcap(true, 0xa1b2c3d4, 0, [[1, 0, 4]]);
    new DataView(reserved.buffer).setUint32(20, 0x00300000, true);
    expect(read(reserved)).toMatchObject({
      packets: [],
      error: {
        code: "BAD_INPUT",
        context: { offset: 20 },
        message:
          "damaged capture at byte 20: pcap header link-type field 0x00300000 has reserved bits 16–25 set (0x00300000): not a pcap file libpcap or Wireshark would read",
      },
    });
    // FCS length present (bit 26), 2 × 16 bits of FCS (bits 28–31): Ethernet all the same.
    const fcs = pcap(false, 0xa1b2c3d4, 0, [[1, 0, 4]]);
    new DataView(fcs.buffer).setUint32(20, 0x24000001, false);
    const read2 = read(fcs);
    expect([read2.error, read2.packets[0][4], read2.reader.info.interfaces[0].linkType]).toEqual([undefined, 1, 1]);
  });

  it("reports a truncated file header as BAD_INPUT", () => {
    const { error } = read(pcap(true, 0xa1b2c3d4, 0, []).subarray(0, 20));
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      message: "damaged capture at byte 0: truncated pcap file header: 24 bytes needed, the file ends after 20",
    });
  });

  it("reads a file with a header and no packets, and says it holds none", () => {
    const { reader, packets, error } = read(pcap(true, 0xa1b2c3d4, 0, []));
    expect([packets.length, error, reader.done]).toEqual([0, undefined, true]);
    expect(reader.info.warnings).toEqual([
      {
        code: "no-packets",
        count: 1,
        offset: 24,
        message: "no packets: the capture ends after its headers (24 bytes)",
      },
    ]);
  });
});

/** Every packet (or the error) of `bytes` pushed in chunks of `size` bytes, and the reader's state after it. */
function readInChunks(bytes: Uint8Array, size: number) {
  const reader = new PcapReader();
  const packets: number[][] = [];
  let error: unknown;
  try {
    for (let at = 0; ; at += size) {
      for (let p = reader.next(); p !== null; p = reader.next()) {
        packets.push([p.tsSec, p.tsNsec, p.capturedLength, p.originalLength, p.fileOffset, p.index, p.data[0]]);
      }
      if (reader.done) break;
      if (at >= bytes.length) reader.end();
      else reader.push(bytes.slice(at, at + size));
    }
  } catch (caught) {
    error = caught;
  }
  return { packets, error, done: reader.done, damage: reader.damage, afterwards: reader.next() };
}

describe("pcap reader, whole records in a chunk or spanning chunks", () => {
  const sizes = [1 << 30, 4096, 100, 7];

  it("bounds captured lengths by the snaplen, at least 256 KiB and at most 16 MiB, whatever the snaplen", () => {
    for (const [snaplen, limit] of [
      [0, 262_144],
      [64, 262_144],
      [300_000, 300_000],
      [0x7fffffff, 16 * 1024 * 1024],
      [0x80000000, 16 * 1024 * 1024],
      [0xffffffff, 16 * 1024 * 1024],
    ]) {
      for (const size of [1 << 30, 65_536]) {
        // Each length both as the first record and after a first packet (past the file header, read on its own).
        const fits = readInChunks(pcap(true, 0xa1b2c3d4, snaplen, [[1, 0, limit]]), size);
        expect([fits.packets.length, fits.error]).toEqual([1, undefined]);
        const later = readInChunks(
          pcap(true, 0xa1b2c3d4, snaplen, [
            [1, 0, 10],
            [2, 0, limit],
          ]),
          size,
        );
        expect([later.packets.length, later.error]).toEqual([2, undefined]);
        for (const records of [
          [[1, 0, limit + 1]],
          [
            [1, 0, 10],
            [2, 0, limit + 1],
          ],
        ] as [number, number, number][][]) {
          const after = records.length === 1 ? "" : " (after 1 packet)";
          const at = records.length === 1 ? 24 : 50;
          expect(readInChunks(pcap(true, 0xa1b2c3d4, snaplen, records), size).error).toMatchObject({
            code: records.length === 1 ? "BAD_INPUT" : "DAMAGED_INPUT",
            message: `damaged capture at byte ${at}${after}: captured length ${limit + 1} is beyond the snapshot length ${snaplen}`,
          });
        }
      }
    }
  });

  it("gives the same packets, damage offset and message in any chunk size, in both byte orders and resolutions", () => {
    const records: [number, number, number][] = [];
    for (let i = 0; i < 40; i++) records.push([1000 + i, i * 997, (i * 37) % 300]);
    let offset = 24;
    const expected = records.map(([sec, fraction, caplen], index) => {
      const packet = [sec, fraction, caplen, caplen + 4, offset, index, caplen > 0 ? 0x45 : undefined];
      offset += 16 + caplen;
      return packet;
    });
    for (const [le, magic, limit] of [
      [true, 0xa1b2c3d4, 1e6],
      [false, 0xa1b2c3d4, 1e6],
      [true, 0xa1b23c4d, 1e9],
      [false, 0xa1b23c4d, 1e9],
    ] as const) {
      const clean = pcap(le, magic, 65535, records);
      const at = 24 + records.slice(0, 25).reduce((n, [, , c]) => n + 16 + c, 0);
      // A fraction of one second (carried, not damage), a captured length beyond the limit, the file cut inside a
      // record header or its data.
      const carried = clean.slice();
      new DataView(carried.buffer).setUint32(at + 4, limit, le);
      const badLength = clean.slice();
      new DataView(badLength.buffer).setUint32(at + 8, 262_145, le);
      const cut = clean.slice(0, at + 9);
      const unit = 1e9 / limit;
      for (const packet of expected) packet[1] = records[packet[5]!][1] * unit;
      const carriedPackets = expected.map((p, i) => (i === 25 ? [p[0]! + 1, 0, ...p.slice(2)] : p));
      for (const size of sizes) {
        const read = readInChunks(carried, size);
        expect([read.packets, read.error, read.done]).toEqual([carriedPackets, undefined, true]);
      }
      const cases = [
        [clean, undefined],
        [badLength, "captured length 262145 is beyond the snapshot length 65535"],
        [cut, "truncated packet record header: 16 bytes needed, the file ends after 9"],
        [clean.slice(0, at + 26), "truncated packet record: 41 bytes needed, the file ends after 26"],
      ] as const;
      for (const [bytes, reason] of cases) {
        for (const size of sizes) {
          const read = readInChunks(bytes, size);
          const kept = reason === undefined ? records.length : 25;
          expect(read.packets).toEqual(expected.slice(0, kept));
          expect([read.done, read.afterwards]).toEqual([true, null]);
          if (reason === undefined) {
            expect([read.error, read.damage]).toEqual([undefined, null]);
          } else {
            const message = `damaged capture at byte ${at} (after 25 packets): ${reason}`;
            expect(read.error).toMatchObject({ code: "DAMAGED_INPUT", message, context: { offset: at } });
            expect(read.damage).toEqual({ offset: at, message });
          }
        }
      }
    }
  });

  it("keeps captured lengths above the original length as they are", () => {
    const bytes = pcap(true, 0xa1b2c3d4, 65535, [
      [1, 0, 60],
      [2, 0, 60],
    ]);
    new DataView(bytes.buffer).setUint32(24 + 12, 10, true);
    const read = readInChunks(bytes, 50);
    expect(read.packets.map(([, , caplen, len, offset]) => [caplen, len, offset])).toEqual([
      [60, 10, 24],
      [60, 64, 100],
    ]);
  });
});
