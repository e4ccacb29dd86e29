// unified2 reader/writer: hand-checked values of public files, truncation errors with offsets, unknown types, round trip.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatIpAddress } from "../net/ip-address.js";
import { concat } from "../testing/index.js";
import { alertFromUnified2Event } from "./alert.js";
import { unified2RecordsFromAlert } from "./alert-to-unified2.js";
import { readUnified2, Unified2Reader, type Unified2RecordAt, type Unified2Warning } from "./unified2-reader.js";
import type { Unified2Event, Unified2Packet, Unified2Record } from "./unified2-records.js";
import { encodeUnified2Record } from "./unified2-writer.js";

const shared = path.resolve(import.meta.dirname, "../../../../../shared/testdata/unified2");
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
    const bytes = load(shared, "snort_unified2-legacy.u2");
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

describe("unified2 reader on damaged input", () => {
  it("names the byte offset of a truncated header", () => {
    expect(() => readUnified2(load(shared, "bad_short-read-on-header.u2"), { file: "x.u2" })).toThrow(
      expect.objectContaining({ code: "DAMAGED_INPUT", context: { file: "x.u2", offset: 0 } }),
    );
  });

  it("names the byte offset and the missing bytes of a truncated body", () => {
    expect(() => readUnified2(load(shared, "bad_short-read-on-body.u2"))).toThrow(
      /type 104\) at byte 0: it announces 60 bytes, 4 present/,
    );
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
