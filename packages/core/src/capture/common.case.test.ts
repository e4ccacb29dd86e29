// The shared reader suite: every format's reader passes the same checks (timestamps, lengths, link types,
// interfaces, chunk independence, truncation, garbage), against what tshark reports for the same files.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import type { CapturedPacket } from "./packet.js";
import type { CaptureFormat, PacketSource } from "./packet-source.js";
import { openPacketSource } from "./sniff.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const tshark = JSON.parse(fs.readFileSync(path.join(fixtures, "tshark-expected.json"), "utf8")) as Record<
  string,
  { packets: number; rows: string[] }
>;

interface ReaderCase {
  name: string;
  file: string;
  /** The file's key in tshark-expected.json. */
  shared: string;
  format: CaptureFormat;
  byteOrder: string;
  /** tshark numbers ERF interfaces by first appearance, not by ERF port. */
  interfacesAsTshark: boolean;
}

const cases: ReaderCase[] = [
  ["pcap µs little-endian", "same100_100-packets.pcap", "pcap", "little-endian"],
  ["pcap ns little-endian", "same100_100-packets-ns.pcap", "pcap", "little-endian"],
  ["pcap µs big-endian", "pcap-be-us_pptp.pcap", "pcap", "big-endian"],
  ["pcapng little-endian", "same100_100-packets.pcapng", "pcapng", "little-endian"],
  ["pcapng big-endian, 3 interfaces, SPB, custom blocks", "pcapng-be_complex.pcapng", "pcapng", "big-endian"],
  ["pcapng 3 sections in both byte orders, 5 interfaces", "pcapng-suite-le-test202.pcapng", "pcapng", "mixed"],
  ["pcapng ns and µs interfaces", "pcapng_multi-interface.pcapng", "pcapng", "little-endian"],
  ["pcapng named .pcap", "misnamed_pcapng-as-pcap_oscar.pcap", "pcapng", "little-endian"],
  ["ERF", "erf_100-packets.erf", "erf", "big-endian"],
].map(([name, file, format, byteOrder]) => ({
  name,
  file,
  shared: file.startsWith("pcapng-suite-")
    ? `formats/pcapng-suite/${file.slice(13, 15)}/${file.slice(16)}`
    : `formats/${file}`,
  format: format as CaptureFormat,
  byteOrder,
  interfacesAsTshark: format !== "erf",
}));

interface Snapshot {
  tsSec: number;
  tsNsec: number;
  capturedLength: number;
  originalLength: number;
  linkType: number;
  interfaceIndex: number;
  fileOffset: number;
  index: number;
  data: Uint8Array;
}

function snapshot(p: CapturedPacket): Snapshot {
  const { tsSec, tsNsec, capturedLength, originalLength, linkType, interfaceIndex, fileOffset, index } = p;
  return {
    tsSec,
    tsNsec,
    capturedLength,
    originalLength,
    linkType,
    interfaceIndex,
    fileOffset,
    index,
    data: p.data.slice(),
  };
}

interface ReadResult {
  packets: Snapshot[];
  source: PacketSource;
  error?: unknown;
}

/** Reads bytes in chunks of `chunk` bytes (all at once by default), copying every packet. */
function readAll(bytes: Uint8Array, chunk = bytes.length): ReadResult {
  const packets: Snapshot[] = [];
  let source: PacketSource | undefined;
  const drain = () => {
    for (let p = source!.next(); p !== null; p = source!.next()) packets.push(snapshot(p));
  };
  try {
    for (let at = 0; at < bytes.length; at += chunk) {
      const piece = bytes.subarray(at, Math.min(bytes.length, at + chunk));
      if (source === undefined) source = openPacketSource(bytes.subarray(0, Math.max(piece.length, 64)));
      else source.push(piece);
      if (at === 0 && piece.length < 64) at = Math.min(64, bytes.length) - chunk;
      drain();
    }
    source!.end();
    drain();
    return { packets, source: source! };
  } catch (error) {
    return { packets, source: source!, error };
  }
}

function load(file: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(fixtures, file)));
}

describe.each(cases)("reader: $name", (c) => {
  const bytes = load(c.shared);
  const whole = readAll(bytes);

  it("reads every packet without damage, as tshark counts them", () => {
    expect(whole.error).toBeUndefined();
    expect(whole.source.done).toBe(true);
    expect(whole.source.damage).toBeNull();
    expect(whole.packets.length).toBe(tshark[c.shared].packets);
    expect(whole.source.packetCount).toBe(whole.packets.length);
    expect(whole.source.consumedBytes).toBe(bytes.length);
  });

  it("reports the format, byte order and interfaces", () => {
    const info = whole.source.info;
    expect(info.format).toBe(c.format);
    expect(info.byteOrder).toBe(c.byteOrder);
    for (const p of whole.packets) {
      const iface = info.interfaces.find((i) => i.index === p.interfaceIndex);
      expect(iface, `packet ${p.index}`).toBeDefined();
      expect(iface!.linkType).toBe(p.linkType);
    }
  });

  it("gives tshark's timestamps (to the nanosecond), lengths and interface of every packet", () => {
    const rows = tshark[c.shared].rows;
    whole.packets.forEach((p, i) => {
      const [time, caplen, len, iface] = rows[i].split(",");
      const got = [p.capturedLength, p.originalLength];
      const want = [Number(caplen), Number(len)];
      if (time !== "") {
        const [sec, frac] = time.split(".");
        got.push(p.tsSec, p.tsNsec);
        want.push(Number(sec), Number(frac.padEnd(9, "0")));
      }
      if (c.interfacesAsTshark && iface !== "") {
        // tshark numbers interfaces within their section; Tracemill counts them across sections.
        const interfaces = whole.source.info.interfaces;
        const section = interfaces[p.interfaceIndex].section;
        got.push(p.interfaceIndex - interfaces.findIndex((i) => i.section === section));
        want.push(Number(iface));
      }
      expect(got, `packet ${i}`).toEqual(want);
      expect(p.data.length).toBe(p.capturedLength);
      expect(p.index).toBe(i);
    });
  });

  it("gives identical packets whatever the chunk sizes (1 byte, 7 bytes, 4 KiB)", () => {
    for (const size of [1, 7, 4096]) {
      const chunked = readAll(bytes, size);
      expect(chunked.error, `chunks of ${size}`).toBeUndefined();
      expect(chunked.packets, `chunks of ${size}`).toEqual(whole.packets);
    }
  });

  it("stops with DAMAGED_INPUT at the offset of a truncated last record, keeping the packets before it", () => {
    const last = whole.packets.at(-1)!;
    const cut = bytes.subarray(0, last.fileOffset + 20);
    for (const size of [cut.length, 3]) {
      const result = readAll(cut, size);
      expect(isTracemillError(result.error)).toBe(true);
      const error = result.error as { code: string; message: string; context: { offset: number } };
      expect(error.code).toBe("DAMAGED_INPUT");
      expect(error.context.offset).toBe(last.fileOffset);
      expect(error.message).toContain(`at byte ${last.fileOffset}`);
      expect(error.message).toMatch(/truncated/);
      expect(result.packets).toEqual(whole.packets.slice(0, -1));
      expect(result.source.damage?.offset).toBe(last.fileOffset);
      expect(result.source.done).toBe(true);
      expect(result.source.next()).toBeNull();
    }
  });

  it("stops with DAMAGED_INPUT at garbage after the last record", () => {
    const garbage = new Uint8Array(bytes.length + 64).fill(0xff);
    garbage.set(bytes);
    const result = readAll(garbage);
    const error = result.error as { code: string; context: { offset: number } };
    expect(error.code).toBe("DAMAGED_INPUT");
    expect(error.context.offset).toBe(bytes.length);
    expect(result.packets).toEqual(whole.packets);
  });

  it("reuses one packet object", () => {
    const source = openPacketSource(bytes);
    source.end();
    const first = source.next();
    const second = source.next();
    expect(first).not.toBeNull();
    expect(second).toBe(first);
  });
});

describe("the same traffic in every format", () => {
  const pcap = readAll(load("formats/same100_100-packets.pcap")).packets;
  const strip = (p: Snapshot) => ({ ...p, fileOffset: 0, interfaceIndex: 0 });

  it("gives identical packets from pcap µs, pcap ns and pcapng", () => {
    expect(pcap).toHaveLength(100);
    for (const file of ["formats/same100_100-packets-ns.pcap", "formats/same100_100-packets.pcapng"]) {
      expect(readAll(load(file)).packets.map(strip), file).toEqual(pcap.map(strip));
    }
  });

  it("gives the same packets from ERF, with finer timestamps (upstream's pcap copies are within 5 µs of them)", () => {
    const erf = readAll(load("formats/erf_100-packets.erf")).packets;
    expect(erf).toHaveLength(100);
    erf.forEach((p, i) => {
      const q = pcap[i];
      const apartNs = Math.abs((p.tsSec - q.tsSec) * 1e9 + p.tsNsec - q.tsNsec);
      expect(apartNs, `packet ${i}`).toBeLessThan(5000);
      expect([p.capturedLength, p.originalLength, p.linkType]).toEqual([
        q.capturedLength,
        q.originalLength,
        q.linkType,
      ]);
      // Upstream's pcap copies have every 0x0d byte turned into 0x0a (the ERF has the original bytes).
      expect(
        p.data.map((b) => (b === 0x0d ? 0x0a : b)),
        `packet ${i}`,
      ).toEqual(q.data);
      expect(p.data.some((b) => b === 0x0d)).toBe(true);
    });
    expect(erf.filter((p) => p.tsNsec % 1000 !== 0).length).toBeGreaterThan(90);
  });
});
