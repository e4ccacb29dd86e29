// IPv4 options, IPv6 extension headers, TCP/UDP fields, fragments, and what counts as truncated or malformed.

import { describe, expect, it } from "vitest";
import {
  capturedPacket,
  concat,
  ethernet,
  fragments,
  ipPayload,
  ipv4,
  ipv6,
  type Layer,
  tcp,
  udp,
} from "../testing/index.js";
import { type DecodedPacket, DecodeKind, TcpFlag } from "./decoded-packet.js";
import { PacketDecoder } from "./packet-decoder.js";

const decoder = new PacketDecoder();
const v4 = { src: "10.1.2.3", dst: "10.9.8.7" };
const v6 = { src: "2001:db8::a", dst: "2001:db8::b" };

function decodeIp(ip: Layer, snaplen?: number): DecodedPacket {
  return decoder.decode(capturedPacket(ethernet(ip), { linkType: 1, snaplen }));
}

function lengths(p: DecodedPacket) {
  return {
    kind: p.kind,
    protocol: p.protocol,
    ipLength: p.ipLength,
    ipHeaderLength: p.ipHeaderLength,
    transportHeaderLength: p.transportHeaderLength,
    payloadLength: p.payloadLength,
    transportOffset: p.transportOffset,
    truncated: p.truncated,
    malformed: p.malformed,
  };
}

describe("IPv4", () => {
  it("includes options in the header length", () => {
    const p = decodeIp(ipv4({ ...v4, options: [0x94, 4, 0, 0] }, tcp({ srcPort: 1, dstPort: 2, payload: 100 })));
    expect(lengths(p)).toEqual({
      kind: DecodeKind.Tcp,
      protocol: 6,
      ipLength: 144,
      ipHeaderLength: 24,
      transportHeaderLength: 20,
      payloadLength: 100,
      transportOffset: 38,
      truncated: false,
      malformed: false,
    });
    const full = decodeIp(ipv4({ ...v4, options: new Array(40).fill(1) }, udp({ srcPort: 1, dstPort: 2 })));
    expect([full.kind, full.ipHeaderLength, full.ipLength, full.payloadLength]).toEqual([DecodeKind.Udp, 60, 68, 0]);
  });

  it("skips an authentication header to reach the ports", () => {
    const ah = concat(Uint8Array.of(17, 4), new Uint8Array(22));
    const inner = concat(ah, udp({ srcPort: 500, dstPort: 4500, payload: 12 }).bytes);
    const p = decodeIp(ipv4(v4, ipPayload(51, inner)));
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Udp, protocol: 17, ipHeaderLength: 44, payloadLength: 12 });
    expect([p.srcPort, p.dstPort]).toEqual([500, 4500]);
  });

  it("reports other protocols with their payload length", () => {
    const p = decodeIp(ipv4(v4, ipPayload(1, 36)));
    expect(lengths(p)).toEqual({
      kind: DecodeKind.OtherIp,
      protocol: 1,
      ipLength: 56,
      ipHeaderLength: 20,
      transportHeaderLength: 0,
      payloadLength: 36,
      transportOffset: -1,
      truncated: false,
      malformed: false,
    });
  });

  it("ignores Ethernet padding after the IP packet", () => {
    const frame = concat(ethernet(ipv4(v4, udp({ srcPort: 7, dstPort: 9 }))), new Uint8Array(18));
    const p = decoder.decode(capturedPacket(frame, { linkType: 1 }));
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Udp, ipLength: 28, payloadLength: 0, truncated: false });
  });

  it("takes a total length of 0 (segmentation offload) from the wire", () => {
    const p = decodeIp(ipv4({ ...v4, totalLength: 0 }, tcp({ srcPort: 1, dstPort: 2, payload: 3000 })));
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Tcp, ipLength: 3040, payloadLength: 3000, malformed: false });
  });
});

describe("IPv6", () => {
  it("walks hop-by-hop, routing, destination options and AH headers", () => {
    const ip = ipv6(
      {
        ...v6,
        extensionHeaders: [{ type: 0 }, { type: 43, length: 24 }, { type: 60, length: 16 }, { type: 51, length: 24 }],
      },
      tcp({ srcPort: 22, dstPort: 50000, flags: TcpFlag.PSH | TcpFlag.ACK, payload: 10 }),
    );
    const p = decodeIp(ip);
    expect(lengths(p)).toEqual({
      kind: DecodeKind.Tcp,
      protocol: 6,
      ipLength: 40 + 72 + 30,
      ipHeaderLength: 112,
      transportHeaderLength: 20,
      payloadLength: 10,
      transportOffset: 14 + 112,
      truncated: false,
      malformed: false,
    });
    expect([p.srcPort, p.dstPort, p.tcpFlags]).toEqual([22, 50000, 0x18]);
  });

  it("stops at ESP and at no-next-header", () => {
    const esp = decodeIp(ipv6({ ...v6, extensionHeaders: [{ type: 0 }] }, ipPayload(50, 64)));
    expect(lengths(esp)).toMatchObject({
      kind: DecodeKind.OtherIp,
      protocol: 50,
      ipHeaderLength: 48,
      payloadLength: 64,
    });
    const none = decodeIp(ipv6(v6, ipPayload(59, 0)));
    expect(lengths(none)).toMatchObject({ kind: DecodeKind.OtherIp, protocol: 59, ipLength: 40, payloadLength: 0 });
  });

  it("takes a payload length of 0 with a next header (jumbogram, offload) from the wire", () => {
    const p = decodeIp(ipv6({ ...v6, payloadLength: 0 }, udp({ srcPort: 1, dstPort: 2, payload: 100 })));
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Udp, ipLength: 148, payloadLength: 100, malformed: false });
  });

  it("treats an atomic fragment (offset 0, no more fragments) as a whole packet", () => {
    const p = decodeIp(ipv6({ ...v6, fragment: { id: 9, offset: 0, more: false } }, udp({ srcPort: 3, dstPort: 4 })));
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Udp, ipHeaderLength: 48 });
    expect(p.isFragment).toBe(false);
  });
});

describe("TCP and UDP", () => {
  it("keeps the whole flags byte, including ECE and CWR, and ignores the NS bit", () => {
    const segment = tcp({ srcPort: 1, dstPort: 2, flags: 0xff });
    segment.bytes[12] |= 1;
    const p = decodeIp(ipv4(v4, segment));
    expect([p.kind, p.tcpFlags, p.transportHeaderLength]).toEqual([DecodeKind.Tcp, 0xff, 20]);
    const ecn = decodeIp(ipv4(v4, tcp({ srcPort: 1, dstPort: 2, flags: TcpFlag.ECE | TcpFlag.CWR | TcpFlag.SYN })));
    expect(ecn.tcpFlags).toBe(0xc2);
  });

  it("takes the UDP payload length from the IP header, not the UDP length field", () => {
    const p = decodeIp(ipv4(v4, udp({ srcPort: 1, dstPort: 2, payload: 50, length: 20 })));
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Udp, payloadLength: 50, malformed: false });
  });
});

describe("fragments", () => {
  it("gives the first IPv4 fragment its ports and leaves later ones pending", () => {
    const [first, second, third] = fragments(v4, udp({ srcPort: 53, dstPort: 3000, payload: 3000 }), 1480, 0x4242);
    const a = decodeIp(first);
    expect(lengths(a)).toMatchObject({ kind: DecodeKind.Udp, ipLength: 1500, payloadLength: 1472 });
    expect([a.isFragment, a.fragmentId, a.fragmentOffset, a.moreFragments, a.srcPort]).toEqual([
      true,
      0x4242,
      0,
      true,
      53,
    ]);
    const b = decodeIp(second);
    expect(lengths(b)).toEqual({
      kind: DecodeKind.FragmentPending,
      protocol: 17,
      ipLength: 1500,
      ipHeaderLength: 20,
      transportHeaderLength: 0,
      payloadLength: 1480,
      transportOffset: -1,
      truncated: false,
      malformed: false,
    });
    expect([b.isFragment, b.fragmentOffset, b.moreFragments, b.srcPort, b.dstPort]).toEqual([true, 1480, true, 0, 0]);
    const c = decodeIp(third);
    expect([c.kind, c.fragmentOffset, c.moreFragments, c.payloadLength]).toEqual([
      DecodeKind.FragmentPending,
      2960,
      false,
      48,
    ]);
  });

  it("decodes IPv6 fragment headers after other extension headers", () => {
    const ip6 = { ...v6, extensionHeaders: [{ type: 0 as const }] };
    const [first, second] = fragments(ip6, tcp({ srcPort: 80, dstPort: 9999, payload: 2000 }), 1232, 0xdeadbeef);
    const a = decodeIp(first);
    expect(lengths(a)).toMatchObject({ kind: DecodeKind.Tcp, ipHeaderLength: 56, payloadLength: 1212 });
    expect([a.fragmentId, a.fragmentOffset, a.moreFragments, a.dstPort]).toEqual([0xdeadbeef, 0, true, 9999]);
    const b = decodeIp(second);
    expect(lengths(b)).toMatchObject({ kind: DecodeKind.FragmentPending, protocol: 6, payloadLength: 788 });
    expect([b.fragmentId, b.fragmentOffset, b.moreFragments]).toEqual([0xdeadbeef, 1232, false]);
  });

  it("reports later fragments of other protocols as OtherIp", () => {
    const [, second] = fragments(v4, ipPayload(1, 2000), 1000);
    expect(decodeIp(second).kind).toBe(DecodeKind.OtherIp);
  });

  it("marks a first fragment too short for the TCP header malformed", () => {
    const [first] = fragments(v4, tcp({ srcPort: 1, dstPort: 2, payload: 100 }), 8);
    expect(lengths(decodeIp(first))).toMatchObject({ kind: DecodeKind.Undecodable, malformed: true });
  });
});

describe("malformed headers", () => {
  const segment = tcp({ srcPort: 1, dstPort: 2, payload: 20 });
  const cases: [string, Layer][] = [
    ["IPv4 IHL < 5", ipv4({ ...v4, headerWords: 4 }, segment)],
    ["IPv4 total length < header length", ipv4({ ...v4, totalLength: 16 }, segment)],
    ["IPv4 total length too short for TCP", ipv4({ ...v4, totalLength: 30 }, segment)],
    ["IPv4 total length too short for UDP", ipv4({ ...v4, totalLength: 24 }, udp({ srcPort: 1, dstPort: 2 }))],
    ["IPv4 version 6 behind EtherType IPv4", { type: 0x0800, bytes: ipv4({ ...v4, version: 6 }, segment).bytes }],
    ["TCP data offset < 5", ipv4(v4, tcp({ srcPort: 1, dstPort: 2, dataOffset: 4 }))],
    ["TCP data offset beyond the IP packet", ipv4(v4, tcp({ srcPort: 1, dstPort: 2, dataOffset: 15 }))],
    ["IPv6 version 4 behind EtherType IPv6", { type: 0x86dd, bytes: ipv6({ ...v6, version: 4 }, segment).bytes }],
    [
      "IPv6 extension header beyond payload",
      ipv6({ ...v6, extensionHeaders: [{ type: 0 }], payloadLength: 4 }, segment),
    ],
    ["IPv6 payload too short for TCP", ipv6({ ...v6, payloadLength: 10 }, segment)],
  ];
  it.each(cases)("%s", (_name, ip) => {
    const p = decodeIp(ip);
    expect([p.kind, p.malformed, p.truncated]).toEqual([DecodeKind.Undecodable, true, false]);
  });
});

describe("truncated packets", () => {
  it("keeps a packet whose payload is cut as TCP with exact lengths, not truncated", () => {
    const p = decodeIp(ipv4(v4, tcp({ srcPort: 1, dstPort: 2, payload: 1000 })), 14 + 40 + 100);
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Tcp, ipLength: 1040, payloadLength: 1000, truncated: false });
  });

  it("keeps a packet whose TCP options are cut as TCP, with its header length and flags", () => {
    const segment = tcp({ srcPort: 1, dstPort: 2, flags: TcpFlag.SYN, options: new Array(12).fill(1) });
    const p = decodeIp(ipv4(v4, segment), 14 + 20 + 25);
    expect(lengths(p)).toMatchObject({
      kind: DecodeKind.Tcp,
      ipLength: 52,
      transportHeaderLength: 32,
      truncated: false,
    });
    expect([p.srcPort, p.dstPort, p.tcpFlags]).toEqual([1, 2, TcpFlag.SYN]);
  });

  it("keeps a packet cut right after its TCP ports as TCP, with no header length or flags", () => {
    const segment = tcp({ srcPort: 1, dstPort: 2, flags: TcpFlag.SYN, payload: 10 });
    const p = decodeIp(ipv4(v4, segment), 14 + 20 + 4);
    expect(lengths(p)).toMatchObject({
      kind: DecodeKind.Tcp,
      ipLength: 50,
      transportHeaderLength: 0,
      payloadLength: 30,
    });
    expect([p.srcPort, p.dstPort, p.tcpFlags, p.truncated]).toEqual([1, 2, 0, false]);
  });

  it("finds a cut TCP header malformed when its captured data offset contradicts the IP length", () => {
    const segment = tcp({ srcPort: 1, dstPort: 2, dataOffset: 15 });
    const p = decodeIp(ipv4(v4, segment), 14 + 20 + 13);
    expect([p.kind, p.malformed, p.truncated, p.srcPort]).toEqual([DecodeKind.Undecodable, true, false, 0]);
  });

  it("makes a packet cut inside its ports or IP header truncated and undecodable, keeping what was read", () => {
    const segment = tcp({ srcPort: 1, dstPort: 2, options: new Array(12).fill(1) });
    const p = decodeIp(ipv4(v4, segment), 14 + 20 + 3);
    expect(lengths(p)).toMatchObject({ kind: DecodeKind.Undecodable, protocol: 6, truncated: true, malformed: false });
    expect([p.ipVersion, p.ipLength, p.srcPort]).toEqual([4, 52, 0]);
    const udpCut = decodeIp(ipv6(v6, udp({ srcPort: 1, dstPort: 2 })), 14 + 40 + 3);
    expect([udpCut.kind, udpCut.truncated, udpCut.ipLength]).toEqual([DecodeKind.Undecodable, true, 48]);
    const ipCut = decodeIp(ipv4(v4, segment), 14 + 19);
    expect([ipCut.kind, ipCut.truncated, ipCut.ipLength]).toEqual([DecodeKind.Undecodable, true, 0]);
  });
});
