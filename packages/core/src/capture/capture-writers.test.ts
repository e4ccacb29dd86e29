// pcap and pcapng writers round-trip through the readers: same packets, interfaces and comments back.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { concat } from "../testing/index.js";
import type { CapturedPacket } from "./packet.js";
import { PcapWriter } from "./pcap-writer.js";
import { PcapngWriter, pcapngInterfacesOf } from "./pcapng-writer.js";
import { openPacketSource } from "./sniff.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");

function readAll(bytes: Uint8Array) {
  const source = openPacketSource(bytes);
  source.end();
  const packets: (Omit<CapturedPacket, "fileOffset"> & { comments: string[] })[] = [];
  for (let p = source.next(); p !== null; p = source.next()) {
    const { tsSec, tsNsec, capturedLength, originalLength, linkType, interfaceIndex, index } = p;
    const data = p.data.slice();
    packets.push({
      tsSec,
      tsNsec,
      capturedLength,
      originalLength,
      linkType,
      interfaceIndex,
      index,
      data,
      comments: source.packetComments(),
    });
  }
  return { packets, info: source.info };
}

function collect(write: (sink: (chunk: Uint8Array) => void) => void): Uint8Array {
  const chunks: Uint8Array[] = [];
  write((c) => chunks.push(c));
  return concat(...chunks);
}

const ns = readAll(new Uint8Array(fs.readFileSync(path.join(fixtures, "formats/pcapng_multi-interface.pcapng"))));
const pcapIn = readAll(new Uint8Array(fs.readFileSync(path.join(fixtures, "formats/same100_100-packets.pcap"))));

describe("PcapWriter", () => {
  it("writes nanosecond pcap that reads back identical", () => {
    const bytes = collect((sink) => {
      const w = new PcapWriter(sink, { nanosecond: true, batchBytes: 1000 });
      for (const p of ns.packets) w.write({ ...p, interfaceIndex: 0, fileOffset: 0 });
      w.finish();
    });
    expect(readAll(bytes).packets).toEqual(ns.packets.map((p) => ({ ...p, interfaceIndex: 0 })));
  });

  it("writes microsecond pcap, truncating nanoseconds", () => {
    const bytes = collect((sink) => {
      const w = new PcapWriter(sink);
      for (const p of ns.packets) w.write({ ...p, fileOffset: 0 });
      w.finish();
    });
    const back = readAll(bytes).packets;
    expect(back.map((p) => p.tsNsec)).toEqual(ns.packets.map((p) => Math.floor(p.tsNsec / 1000) * 1000));
    expect(back.map((p) => p.data)).toEqual(ns.packets.map((p) => p.data));
  });

  it("refuses a second link type", () => {
    const w = new PcapWriter(() => {}, { linkType: 1 });
    expect(() => w.write({ ...pcapIn.packets[0], linkType: 101, fileOffset: 0 })).toThrow(/one link type/);
  });

  it("writes a header-only file when there are no packets", () => {
    expect(readAll(collect((sink) => new PcapWriter(sink).finish())).packets).toEqual([]);
  });
});

describe("PcapngWriter", () => {
  it("keeps interfaces with their options, packet comments and nanoseconds", () => {
    const bytes = collect((sink) => {
      const w = new PcapngWriter(sink, {
        interfaces: [
          { linkType: 1, name: "eth0", description: "uplink", snaplen: 9000 },
          { linkType: 1, name: "eth1", tsresol: 6 },
        ],
        application: "tracemill test",
        comments: ["section comment"],
        batchBytes: 512,
      });
      ns.packets.forEach((p, i) => {
        w.write({ ...p, fileOffset: 0 }, i === 2 ? ["kept", "twice ✓"] : []);
      });
      w.finish();
    });
    const back = readAll(bytes);
    expect(back.info.comments).toEqual(["section comment"]);
    expect(back.info.sections[0].application).toBe("tracemill test");
    expect(back.info.interfaces).toMatchObject([
      { name: "eth0", description: "uplink", snaplen: 9000, unitsPerSecond: 1e9 },
      { name: "eth1", unitsPerSecond: 1e6 },
    ]);
    const micro = (p: (typeof back.packets)[number]) =>
      p.interfaceIndex === 1 ? { ...p, tsNsec: Math.floor(p.tsNsec / 1000) * 1000 } : p;
    expect(back.packets).toEqual(
      ns.packets.map((p, i) => micro({ ...p, comments: i === 2 ? ["kept", "twice ✓"] : [] })),
    );
  });

  it("declares an interface for each new interface and link type it meets", () => {
    const bytes = collect((sink) => {
      const w = new PcapngWriter(sink);
      w.write({ ...pcapIn.packets[0], fileOffset: 0 });
      w.write({ ...pcapIn.packets[1], linkType: 228, fileOffset: 0 });
      w.write({ ...pcapIn.packets[2], interfaceIndex: 5, fileOffset: 0 });
      w.finish();
    });
    const back = readAll(bytes);
    expect(back.info.interfaces.map((i) => i.linkType)).toEqual([1, 228, 1]);
    expect(back.packets.map((p) => [p.interfaceIndex, p.linkType])).toEqual([
      [0, 1],
      [1, 228],
      [2, 1],
    ]);
  });

  it("reproduces a reader's interfaces with pcapngInterfacesOf", () => {
    const bytes = collect((sink) => {
      const w = new PcapngWriter(sink, { interfaces: pcapngInterfacesOf(ns.info) });
      for (const p of ns.packets) w.write({ ...p, fileOffset: 0 });
      w.finish();
    });
    const back = readAll(bytes);
    const shape = (i: { linkType: number; snaplen: number; unitsPerSecond: number }) => [
      i.linkType,
      i.snaplen,
      i.unitsPerSecond,
    ];
    expect(back.info.interfaces.map(shape)).toEqual(ns.info.interfaces.map(shape));
    expect(back.packets).toEqual(ns.packets);
  });
});
