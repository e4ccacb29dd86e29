// ERF specifics: record types, interfaces, extension headers, padding, skipped and provenance records, rounding,
// damage.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ErfReader } from "./erf-reader.js";
import { openPacketSource, SNIFF_BYTES, sniffCaptureFormat } from "./sniff.js";

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

describe("ERF provenance (meta) records", () => {
  const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
  const erf100 = new Uint8Array(fs.readFileSync(path.join(fixtures, "formats/erf_100-packets.erf")));
  /** tshark's `time,caplen,len,interface` of each packet of erf_100-packets.erf (tshark-expected.json). */
  const tsharkRows = (
    JSON.parse(fs.readFileSync(path.join(fixtures, "tshark-expected.json"), "utf8")) as Record<
      string,
      { rows: string[] }
    >
  )["formats/erf_100-packets.erf"].rows.map((r) => r.split(",").slice(0, 3).join(","));

  /** A type 27 record as Endace software writes it: a Host ID extension header, then capture-section tags. */
  function meta(secondsFrom: Uint8Array): Uint8Array {
    const tags = [
      tag(0xff00, [0, 0, 0, 0]),
      tag(
        16,
        [..."tracemill test"].map((c) => c.charCodeAt(0)),
      ),
    ];
    const payload = tags.reduce((n, t) => n + t.length, 0);
    const out = new Uint8Array(16 + 8 + payload);
    const v = new DataView(out.buffer);
    out.set(secondsFrom.subarray(0, 8), 0);
    v.setUint8(8, 27 | 0x80);
    v.setUint16(10, out.length, false);
    v.setUint8(16, 17); // ERF_EXT_HDR_TYPE_HOST_ID, no more extension headers
    v.setUint8(17, 1);
    v.setUint8(23, 1);
    let at = 24;
    for (const t of tags) {
      out.set(t, at);
      at += t.length;
    }
    return out;
  }
  function tag(type: number, value: number[]): Uint8Array {
    const out = new Uint8Array(4 + Math.ceil(value.length / 4) * 4);
    new DataView(out.buffer).setUint16(0, type, false);
    new DataView(out.buffer).setUint16(2, value.length, false);
    out.set(value, 4);
    return out;
  }
  /** The fixture with a meta record first, another after its 50th record and one last. */
  function withMeta(): Uint8Array {
    const record = meta(erf100);
    let at = 0;
    for (let i = 0; i < 50; i++) at += new DataView(erf100.buffer).getUint16(at + 10, false);
    const parts = [record, erf100.subarray(0, at), record, erf100.subarray(at), record];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let to = 0;
    for (const p of parts) {
      out.set(p, to);
      to += p.length;
    }
    return out;
  }

  it("are skipped and counted wherever they appear, first record included; the packets are tshark's", () => {
    // capinfos and tshark read the same bytes as 100 Ethernet records plus 3 type 27 records (capinfos counts 103).
    const bytes = withMeta();
    expect(sniffCaptureFormat(bytes.subarray(0, SNIFF_BYTES))).toBe("erf");
    for (const chunk of [bytes.length, 4096, 13]) {
      // The first chunk is what the engine sniffs (SNIFF_BYTES); the rest comes in chunks of `chunk` bytes.
      const source = openPacketSource(bytes.subarray(0, SNIFF_BYTES));
      const rows: string[] = [];
      for (let at = SNIFF_BYTES; ; at += chunk) {
        for (let p = source.next(); p !== null; p = source.next()) {
          rows.push(`${p.tsSec}.${String(p.tsNsec).padStart(9, "0")},${p.capturedLength},${p.originalLength}`);
        }
        if (source.done) break;
        if (at >= bytes.length) source.end();
        else source.push(bytes.subarray(at, at + chunk));
      }
      expect(rows).toEqual(tsharkRows);
      expect([source.info.skippedRecords, source.info.warnings, source.damage]).toEqual([3, [], null]);
    }
  });

  it("make a capture of nothing else say that it holds no packets", () => {
    const { reader, packets, error } = read(meta(erf100), meta(erf100));
    expect([packets, error, reader.info.skippedRecords]).toEqual([[], undefined, 2]);
    expect(reader.info.warnings).toEqual([
      {
        code: "no-packets",
        count: 1,
        offset: 104,
        message:
          "no packets: the capture holds only 2 records that carry none (ERF provenance, padding or other non-packet types), skipped",
      },
    ]);
    expect(sniffCaptureFormat(meta(erf100))).toBe("erf");
  });
});
