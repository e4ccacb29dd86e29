// Real captures of every link type: addresses, protocols, ports and lengths agree with tshark (test/fixtures/decode).

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type CapturedPacket, openPacketSource } from "../capture/index.js";
import { addressText } from "../testing/index.js";
import { type DecodedPacket, DecodeKind } from "./decoded-packet.js";
import { FragmentTracker } from "./fragment-tracker.js";
import { PacketDecoder } from "./packet-decoder.js";

/** The captures library's formats/; expected.json names captures there. */
const fixtures = new URL("../../../../test/fixtures/capture/formats/", import.meta.url);
type Row = Record<string, string>;
const expected: Record<string, Row[]> = JSON.parse(
  readFileSync(new URL("../../../../test/fixtures/decode/expected.json", import.meta.url), "utf8"),
);

function snapshot(p: DecodedPacket) {
  const version = p.ipVersion === 0 ? null : p.ipVersion;
  return {
    kind: p.kind,
    ipVersion: p.ipVersion,
    src: version ? addressText(p.src, version) : "",
    dst: version ? addressText(p.dst, version) : "",
    protocol: p.protocol,
    srcPort: p.srcPort,
    dstPort: p.dstPort,
    ipLength: p.ipLength,
    ipHeaderLength: p.ipHeaderLength,
    transportHeaderLength: p.transportHeaderLength,
    tcpFlags: p.tcpFlags,
    payloadLength: p.payloadLength,
    isFragment: p.isFragment,
    truncated: p.truncated,
    malformed: p.malformed,
  };
}

/** Reads a fixture with the capture reader, decoding every packet; `each` sees the live records. */
function decodeFile(file: string, each?: (decoded: DecodedPacket, packet: CapturedPacket) => void) {
  const source = openPacketSource(new Uint8Array(readFileSync(new URL(file, fixtures))));
  source.end();
  const decoder = new PacketDecoder();
  const out: ReturnType<typeof snapshot>[] = [];
  for (let packet = source.next(); packet !== null; packet = source.next()) {
    const decoded = decoder.decode(packet);
    out.push(snapshot(decoded));
    each?.(decoded, packet);
  }
  return out;
}

/** What the decoder must say about a packet tshark described as `row` (reassembly off). */
function expectation(row: Row): Partial<ReturnType<typeof snapshot>> {
  // Truncated only when cut before the IP header and ports are complete: tshark then shows an IP header's fields
  // without its addresses (below); these captures cut no TCP/UDP header inside its ports.
  const e: Partial<ReturnType<typeof snapshot>> = { malformed: false, truncated: false };
  if (row["ip.dst"] !== undefined) {
    Object.assign(e, { ipVersion: 4, src: row["ip.src"], dst: row["ip.dst"], protocol: Number(row["ip.proto"]) });
    Object.assign(e, { ipLength: Number(row["ip.len"]), ipHeaderLength: Number(row["ip.hdr_len"]) });
  } else if (row["ipv6.dst"] !== undefined) {
    Object.assign(e, { ipVersion: 6, src: row["ipv6.src"], dst: row["ipv6.dst"], protocol: Number(row["ipv6.nxt"]) });
    e.ipLength = 40 + Number(row["ipv6.plen"]);
  } else if (row["ip.len"] !== undefined || row["ipv6.plen"] !== undefined) {
    // tshark shows the fields it could read of an IP header the capture cut short.
    return { kind: DecodeKind.Undecodable, ipVersion: row["ip.len"] ? 4 : 6, truncated: true, malformed: false };
  } else {
    return { ...e, kind: DecodeKind.NonIp, ipVersion: 0 };
  }
  if (e.protocol === 6 && row["tcp.srcport"] !== undefined) {
    Object.assign(e, {
      kind: DecodeKind.Tcp,
      srcPort: Number(row["tcp.srcport"]),
      dstPort: Number(row["tcp.dstport"]),
    });
    e.transportHeaderLength = Number(row["tcp.hdr_len"]);
    e.tcpFlags = Number.parseInt(row["tcp.flags"], 16) & 0xff;
    e.payloadLength = Number(row["tcp.len"]);
  } else if (e.protocol === 17 && row["udp.srcport"] !== undefined) {
    Object.assign(e, {
      kind: DecodeKind.Udp,
      srcPort: Number(row["udp.srcport"]),
      dstPort: Number(row["udp.dstport"]),
    });
    e.transportHeaderLength = 8;
  } else if (e.protocol === 6 || e.protocol === 17) {
    // tshark shows no transport header for a fragment after the first.
    Object.assign(e, { kind: DecodeKind.FragmentPending, isFragment: true, srcPort: 0 });
  } else {
    e.kind = DecodeKind.OtherIp;
  }
  return e;
}

describe("real captures agree with tshark", () => {
  for (const [file, rows] of Object.entries(expected)) {
    it(file, () => {
      const decoded = decodeFile(file);
      expect(decoded.length).toBe(rows.length);
      rows.forEach((row, i) => {
        expect({ frame: i + 1, ...decoded[i] }).toMatchObject({
          frame: i + 1,
          ...expectation(row),
        });
      });
    });
  }

  it("covers the link types it claims to", () => {
    const linkTypes = new Set<number>();
    for (const file of Object.keys(expected)) {
      const source = openPacketSource(new Uint8Array(readFileSync(new URL(file, fixtures))));
      source.end();
      const packet = source.next();
      if (packet) linkTypes.add(packet.linkType);
    }
    expect([...linkTypes].sort((a, b) => a - b)).toEqual([0, 1, 101, 113, 228, 229, 276]);
  });

  it("attributes the IPv6 DNS response fragments to their ports; a lone later fragment stays unattributed", () => {
    const resolved: number[] = [];
    const unattributed: number[] = [];
    const tracker = new FragmentTracker<number>({
      hold: (_decoded, packet) => packet.index,
      resolved: (index) => resolved.push(index),
      unattributed: (index) => unattributed.push(index),
    });
    const ports: string[] = [];
    decodeFile("ipv6_fragmented-dns.pcap", (decoded, packet) => {
      tracker.track(decoded, packet);
      ports.push(`${decoded.kind}:${decoded.srcPort}>${decoded.dstPort}`);
    });
    tracker.flush();
    const udp = DecodeKind.Udp;
    expect(ports.slice(3)).toEqual(
      [`${DecodeKind.FragmentPending}:0>0`, `${udp}:51851>53`, `${udp}:53>51851`].concat([
        `${udp}:53>51851`,
        `${udp}:53>51851`,
      ]),
    );
    expect(resolved).toEqual([]);
    expect(unattributed).toEqual([3]);
    expect(tracker.stats).toMatchObject({ attributed: 2, flushed: 1 });
  });
});
