// unified2 reader/writer: hand-checked values of public files, truncation errors with offsets, unknown types, round trip.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatIpAddress } from "../net/ip-address.js";
import { concat } from "../testing/index.js";
import { alertFromUnified2Event } from "./alert.js";
import { unified2RecordsFromAlert } from "./alert-to-unified2.js";
import { readUnified2, Unified2Reader, type Unified2RecordAt, type Unified2Warning } from "./unified2-reader.js";
import {
  type Unified2Event,
  type Unified2Packet,
  type Unified2Record,
  unified2PacketHeaderLength,
} from "./unified2-records.js";
import { encodeUnified2Record } from "./unified2-writer.js";

const fixtures = path.resolve(import.meta.dirname, "../../../../test/fixtures/alerts");
const load = (dir: string, name: string) => new Uint8Array(fs.readFileSync(path.join(dir, name)));

function countKinds(records: Unified2Record[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) {
    const key = r.kind === "event" ? `event-${r.type}` : r.kind;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe("unified2 reader on public files (values checked by hand against the record layout)", () => {
  it("reads an IPv6 event (type 105) and its packet", () => {
    const records = readUnified2(load(fixtures, "pyidstools_ipv6-alert.unified2"));
    expect(countKinds(records)).toEqual({ "event-105": 1, packet: 1 });
    const event = records[0] as Unified2Event;
    expect(event).toMatchObject({
      offset: 0,
      sensorId: 0,
      eventId: 1,
      eventSecond: 0x5818b9ac,
      eventMicrosecond: 0x0e0400,
      signatureId: 18474,
      generatorId: 1,
      signatureRevision: 3,
      classificationId: 29,
      priority: 3,
      srcPort: 0,
      dstPort: 0,
      protocol: 58,
      mplsLabel: 0,
      vlanId: 0,
    });
    expect(formatIpAddress(event.src)).toBe("fe80::dacb:8aff:feed:a146");
    expect(formatIpAddress(event.dst)).toBe("fe80::215:17ff:fe0d:6f7");
    const packet = records[1] as Unified2Packet & { offset: number };
    expect(packet).toMatchObject({ offset: 92, eventId: 1, packetSecond: 0x5818b9ac, packetMicrosecond: 0x0e0400 });
    expect(packet.linkType).toBe(1);
    expect(packet.data.length).toBe(118);
    // Ethernet type 0x86dd (IPv6) at bytes 12-13 of the packet.
    expect([packet.data[12], packet.data[13]]).toEqual([0x86, 0xdd]);
  });

  it("reads a multi-record event: a V2 IPv4 event, extra data and 15 packets", () => {
    const records = readUnified2(load(fixtures, "pyidstools_multi-record-event.u2"));
    expect(countKinds(records)).toEqual({ "event-104": 1, "extra-data": 1, packet: 15 });
    const event = records[0] as Unified2Event;
    expect(event).toMatchObject({ eventId: 89, eventSecond: 964798804, eventMicrosecond: 267362 });
    expect(event).toMatchObject({ generatorId: 120, signatureId: 3, signatureRevision: 1, classificationId: 2 });
    expect(event).toMatchObject({ priority: 3, srcPort: 80, dstPort: 2651, protocol: 6 });
    expect(formatIpAddress(event.src)).toBe("207.25.71.28");
    expect(formatIpAddress(event.dst)).toBe("10.20.11.123");
    const extra = records[1];
    expect(extra.kind).toBe("extra-data");
    if (extra.kind !== "extra-data") return;
    expect(extra).toMatchObject({ offset: 68, eventId: 89, eventSecond: 964798804, extraType: 13, dataType: 1 });
    expect(extra.data.length).toBe(18570);
    expect(new TextDecoder().decode(extra.data.subarray(0, 6))).toBe("<HTML>");
    for (const r of records.slice(2)) expect(r).toMatchObject({ kind: "packet", eventId: 89 });
  });

  it("reads six V2 IPv4 events with packets", () => {
    const records = readUnified2(load(fixtures, "pyidstools_merged.u2"));
    expect(countKinds(records)).toEqual({ "event-104": 6, packet: 6 });
    const event = records[0] as Unified2Event;
    expect(event).toMatchObject({ eventId: 1, eventSecond: 1373924958, eventMicrosecond: 307485 });
    expect(event).toMatchObject({ signatureId: 498, signatureRevision: 10, classificationId: 3, priority: 2 });
    expect(event).toMatchObject({ srcPort: 80, dstPort: 39376, protocol: 6 });
    expect(formatIpAddress(event.src)).toBe("172.16.1.10");
    expect(formatIpAddress(event.dst)).toBe("172.16.1.11");
  });

  it("reads a legacy Snort log of type-7 events in chunks of any size", () => {
    const bytes = load(fixtures, "snort_unified2-legacy.u2");
    const whole = readUnified2(bytes);
    expect(countKinds(whole)).toEqual({ "event-7": 4703, packet: 4704 });
    const first = whole[0] as Unified2Event;
    expect(first).toMatchObject({ eventId: 1, eventSecond: 1286333418, eventMicrosecond: 739953 });
    expect(first).toMatchObject({ signatureId: 485, generatorId: 1, signatureRevision: 5, classificationId: 29 });
    expect(first).toMatchObject({ priority: 3, srcPort: 3, dstPort: 13, protocol: 1, mplsLabel: 0 });
    expect(formatIpAddress(first.src)).toBe("24.19.7.110");
    expect(formatIpAddress(first.dst)).toBe("10.0.1.6");
    const sids = new Set(whole.flatMap((r) => (r.kind === "event" ? [r.signatureId] : [])));
    expect(sids.size).toBe(13);
    const chunked: Unified2RecordAt[] = [];
    const reader = new Unified2Reader();
    for (let at = 0; at < bytes.length; at += 997) reader.push(bytes.slice(at, at + 997), (r) => chunked.push(r));
    reader.finish();
    expect(chunked.length).toBe(whole.length);
    expect(chunked.map((r) => r.offset)).toEqual(whole.map((r) => r.offset));
    expect(chunked[9000]).toEqual(whole[9000]);
  });
});

/** A record header: type and body length, big-endian. */
const header = (type: number, length: number) => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setUint32(0, type);
  new DataView(bytes.buffer).setUint32(4, length);
  return bytes;
};

describe("unified2 reader on damaged input", () => {
  // The two cases of go-unified2's test/short-read-on-*.log, built here: 6 bytes of a type-104 header, and its
  // header announcing 60 bytes with 4 present.
  it("names the byte offset of a truncated header", () => {
    expect(() => readUnified2(header(104, 60).subarray(0, 6), { file: "x.u2" })).toThrow(
      expect.objectContaining({
        code: "DAMAGED_INPUT",
        message: "x.u2: truncated unified2 record header at byte 0: 6 of 8 bytes present",
        context: { file: "x.u2", offset: 0 },
      }),
    );
  });

  it("names the byte offset and the missing bytes of a truncated body", () => {
    expect(() => readUnified2(concat(header(104, 60), new Uint8Array(4)))).toThrow(
      /type 104\) at byte 0: it announces 60 bytes, 4 present/,
    );
  });

  it("refuses a record type or length no unified2 writer makes: text, or a header out of step", () => {
    const known = load(fixtures, "pyidstools_ipv6-alert.unified2");
    expect(() => readUnified2(new TextEncoder().encode("time,src,dst\n1,2,3\n"), { file: "a.csv" })).toThrow(
      `a.csv: record at byte 0 has type ${0x74696d65} and announces ${0x2c737263} bytes: not a unified2 file, or damaged`,
    );
    expect(() => readUnified2(concat(known, header(0x10000, 4), new Uint8Array(4)))).toThrow(
      expect.objectContaining({ context: { file: undefined, offset: known.length } }),
    );
    expect(() => readUnified2(concat(header(2, 64 * 1024 * 1024 + 1)))).toThrow(/announces 67108865 bytes/);
  });

  it("refuses an event whose microseconds reach a second, and extra data whose blob length does not fit", () => {
    const event = load(fixtures, "pyidstools_ipv6-alert.unified2").slice(0, 92);
    new DataView(event.buffer).setUint32(8 + 12, 1_000_000);
    expect(() => readUnified2(event)).toThrow("unified2 event at byte 0 has 1000000 microseconds past its second");
    const extra = (blobLength: number, data: number) => {
      const body = new Uint8Array(32 + data);
      new DataView(body.buffer).setUint32(28, blobLength);
      return concat(header(110, body.length), body);
    };
    expect(readUnified2(extra(8 + 5, 5))[0]).toMatchObject({ kind: "extra-data", data: new Uint8Array(5) });
    expect(() => readUnified2(extra(8 + 6, 5))).toThrow(
      "announces a blob of 14 bytes (8 + data), 5 data bytes present",
    );
    expect(() => readUnified2(extra(7, 5))).toThrow("announces a blob of 7 bytes");
  });

  it("takes a long record in many small chunks without joining them for each chunk", () => {
    const data = Buffer.alloc(4 * 1024 * 1024, "unified2");
    const body = concat(new Uint8Array(unified2PacketHeaderLength), data);
    new DataView(body.buffer).setUint32(24, data.length);
    const bytes = concat(header(2, body.length), body);
    const reader = new Unified2Reader();
    const records: Unified2RecordAt[] = [];
    const started = performance.now();
    for (let at = 0; at < bytes.length; at += 512) reader.push(bytes.subarray(at, at + 512), (r) => records.push(r));
    reader.finish();
    // Joined per chunk, 8192 chunks would copy about 16 GB; joined once, 4 MiB.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(records).toHaveLength(1);
    expect(Buffer.from((records[0] as Unified2Packet).data).equals(data)).toBe(true);
  });

  it("delivers the records before a cut and reports the cut's offset", () => {
    const bytes = load(fixtures, "pyidstools_merged.u2");
    const records: Unified2RecordAt[] = [];
    const reader = new Unified2Reader();
    reader.push(bytes.subarray(0, 500), (r) => records.push(r));
    expect(records.map((r) => r.offset)).toEqual([0, 68]);
    expect(() => reader.finish()).toThrow(expect.objectContaining({ context: { file: undefined, offset: 477 } }));
  });

  it("rejects an event record of the wrong size", () => {
    const bytes = new Uint8Array([0, 0, 0, 7, 0, 0, 0, 4, 1, 2, 3, 4]);
    expect(() => readUnified2(bytes)).toThrow(/type 7 at byte 0 has 4 bytes, expected 52/);
  });

  it("skips an unknown record type with a warning and goes on", () => {
    const known = load(fixtures, "pyidstools_ipv6-alert.unified2");
    const unknown = new Uint8Array([0, 0, 0, 113, 0, 0, 0, 3, 9, 9, 9]);
    const bytes = new Uint8Array(unknown.length + known.length);
    bytes.set(unknown);
    bytes.set(known, unknown.length);
    const warnings: Unified2Warning[] = [];
    const records = readUnified2(bytes, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([expect.objectContaining({ offset: 0, recordType: 113 })]);
    expect(records.map((r) => r.offset)).toEqual([11, 103]);
  });
});

describe("unified2 writer", () => {
  it("re-encodes every record of the public files byte for byte", () => {
    for (const name of ["pyidstools_ipv6-alert.unified2", "pyidstools_multi-record-event.u2", "pyidstools_merged.u2"]) {
      const bytes = load(fixtures, name);
      const encoded = readUnified2(bytes).map((r) => encodeUnified2Record(r));
      const joined = new Uint8Array(encoded.reduce((n, e) => n + e.length, 0));
      let at = 0;
      for (const e of encoded) {
        joined.set(e, at);
        at += e.length;
      }
      expect(Buffer.from(joined).equals(Buffer.from(bytes)), name).toBe(true);
    }
  });

  it("round-trips alerts through events 104/105 and packets", () => {
    const ipv6 = readUnified2(load(fixtures, "pyidstools_ipv6-alert.unified2"));
    const alert = alertFromUnified2Event(ipv6[0] as Unified2Event);
    alert.packet = { linkType: 1, data: (ipv6[1] as Unified2Packet).data };
    const v4 = { ...alert, ipVersion: 4 as const, src: "10.0.0.1", dst: "192.168.1.2", srcPort: 1234, dstPort: 80 };
    v4.protocol = 6;
    v4.packet = undefined;
    const records = [...unified2RecordsFromAlert(alert, 7), ...unified2RecordsFromAlert(v4, 8)];
    const back = readUnified2(concat(...records.map(encodeUnified2Record)));
    expect(back.map((r) => (r.kind === "event" ? r.type : r.kind))).toEqual([105, "packet", 104]);
    const again = alertFromUnified2Event(back[0] as Unified2Event);
    expect({ ...again, packet: alert.packet, eventId: 1 }).toEqual({ ...alert, eventId: 1 });
    expect((back[1] as Unified2Packet).data).toEqual(alert.packet.data);
    expect(alertFromUnified2Event(back[2] as Unified2Event)).toMatchObject({
      src: "10.0.0.1",
      dstPort: 80,
      eventId: 8,
    });
  });
});

describe("unified2 VLAN id", () => {
  it("writes the innermost tag of a QinQ alert at the event's VLAN field, 0 untagged", () => {
    const ipv6 = readUnified2(load(fixtures, "pyidstools_ipv6-alert.unified2"));
    const alert = alertFromUnified2Event(ipv6[0] as Unified2Event);
    const v4 = { ...alert, ipVersion: 4 as const, src: "10.0.0.1", dst: "192.168.1.2", protocol: 6, packet: undefined };
    const tagged = encodeUnified2Record(unified2RecordsFromAlert({ ...v4, vlan: [100, 10] }, 1)[0] as Unified2Record);
    const plain = encodeUnified2Record(unified2RecordsFromAlert(v4, 2)[0] as Unified2Record);
    // Event 104: 8-byte header, then 9 words, two IPv4 addresses, ports, protocol, impact flag, impact, blocked,
    // the MPLS label (body offset 52) and the VLAN id (body offset 56, 16 bits, big-endian).
    const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(view(tagged).getUint16(8 + 56)).toBe(10);
    expect(view(plain).getUint16(8 + 56)).toBe(0);
    expect((readUnified2(tagged)[0] as Unified2Event).vlanId).toBe(10);
  });
});
