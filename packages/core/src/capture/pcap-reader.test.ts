// pcap specifics: byte orders and resolutions from the magic, lenient and insane captured lengths, header damage.
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

  it("rejects a microsecond fraction of a million or more as a broken record", () => {
    expect(read(pcap(true, 0xa1b2c3d4, 0, [[1, 1_000_000, 4]])).error).toMatchObject({ code: "BAD_INPUT" });
  });

  it("reports a truncated file header as BAD_INPUT", () => {
    const { error } = read(pcap(true, 0xa1b2c3d4, 0, []).subarray(0, 20));
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      message: "damaged capture at byte 0: truncated pcap file header: 24 bytes needed, the file ends after 20",
    });
  });

  it("reads a file with a header and no packets", () => {
    const { reader, packets, error } = read(pcap(true, 0xa1b2c3d4, 0, []));
    expect([packets.length, error, reader.done]).toEqual([0, undefined, true]);
  });
});
