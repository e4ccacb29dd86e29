// ERF specifics: record types, interfaces, extension headers, padding, skipped records, rounding, damage.
import { describe, expect, it } from "vitest";
import { ErfReader } from "./erf-reader.js";

/** One ERF record: header (LE timestamp, BE rest), optional extension headers, Ethernet pad, data, padding. */
function record(o: {
  type: number;
  port?: number;
  frac?: number;
  data: number;
  wlen?: number;
  ext?: number;
  pad?: number;
}) {
  const ethernet = [2, 11, 16, 20].includes(o.type & 0x7f);
  const ext = o.ext ?? 0;
  const rlen = 16 + ext * 8 + (ethernet ? 2 : 0) + o.data + (o.pad ?? 0);
  const out = new Uint8Array(rlen);
  const v = new DataView(out.buffer);
  v.setUint32(0, o.frac ?? 0, true);
  v.setUint32(4, 1_700_000_000, true);
  v.setUint8(8, o.type | (ext > 0 ? 0x80 : 0));
  v.setUint8(9, o.port ?? 0);
  v.setUint16(10, rlen, false);
  v.setUint16(14, o.wlen ?? o.data, false);
  for (let i = 0; i < ext; i++) v.setUint8(16 + i * 8, i < ext - 1 ? 0x80 : 0x01);
  out.fill(0x60, rlen - o.data - (o.pad ?? 0), rlen - (o.pad ?? 0));
  return out;
}

function read(...records: Uint8Array[]) {
  const reader = new ErfReader();
  for (const r of records) reader.push(r);
  reader.end();
  const packets: number[][] = [];
  try {
    for (let p = reader.next(); p !== null; p = reader.next()) {
      packets.push([p.linkType, p.interfaceIndex, p.capturedLength, p.originalLength, p.tsNsec, p.data[0]]);
    }
    return { reader, packets, error: undefined };
  } catch (error) {
    return { reader, packets, error };
  }
}

describe("ERF reader", () => {
  it("maps Ethernet, IPv4 and IPv6 records to their link types, with their interface", () => {
    const { reader, packets } = read(
      record({ type: 2, port: 1, data: 60 }),
      record({ type: 22, port: 2, data: 40 }),
      record({ type: 23, port: 3, data: 48 }),
    );
    expect(packets.map((p) => p.slice(0, 4))).toEqual([
      [1, 1, 60, 60],
      [228, 2, 40, 40],
      [229, 3, 48, 48],
    ]);
    expect(reader.info.interfaces.map((i) => [i.index, i.name])).toEqual([
      [1, "port B"],
      [2, "port C"],
      [3, "port D"],
    ]);
  });

  it("lists the ports it saw in port order", () => {
    const { reader } = read(record({ type: 2, port: 3, data: 20 }), record({ type: 2, port: 0, data: 20 }));
    expect(reader.info.interfaces.map((i) => i.index)).toEqual([0, 3]);
  });

  it("skips extension headers and trailing padding (captured = min(rlen - headers, wlen))", () => {
    const { packets } = read(
      record({ type: 2, ext: 2, data: 30, pad: 6, wlen: 30 }),
      record({ type: 22, data: 20, wlen: 1500 }),
    );
    expect(packets.map((p) => [p[2], p[3], p[5]])).toEqual([
      [30, 30, 0x60],
      [20, 1500, 0x60],
    ]);
  });

  it("skips padding records and types it does not deliver, counting them", () => {
    const { reader, packets } = read(
      record({ type: 48, data: 8 }),
      record({ type: 1, data: 8 }),
      record({ type: 2, data: 20 }),
    );
    expect(packets).toHaveLength(1);
    expect(reader.info.skippedRecords).toBe(2);
  });

  it("rounds the binary fraction to the nearest nanosecond", () => {
    const { packets } = read(record({ type: 22, data: 20, frac: 0x80000000 }), record({ type: 22, data: 20, frac: 3 }));
    expect(packets.map((p) => p[4])).toEqual([500_000_000, 1]);
  });

  it("stops at an undefined record type or a record length shorter than its header", () => {
    const bad = record({ type: 22, data: 20 });
    bad[8] = 0x3f;
    expect(read(record({ type: 22, data: 20 }), bad).error).toMatchObject({
      code: "DAMAGED_INPUT",
      context: { offset: 36 },
    });
    const short = record({ type: 22, data: 20 });
    short[10] = 0;
    short[11] = 8;
    expect(read(short).error).toMatchObject({ code: "BAD_INPUT", message: /record length 8 is shorter/ });
  });
});
