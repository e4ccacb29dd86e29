// Exact field values for every link type and header variant the decoder supports, on synthetic packets.

import { describe, expect, it } from "vitest";
import { PacketRecord } from "../capture/packet-record.js";
import {
  capturedPacket,
  ciscoHdlc,
  concat,
  ethernet,
  fragments,
  ipv4,
  ipv6,
  type Layer,
  loopback,
  ppp,
  sll,
  sll2,
  tcp,
  udp,
} from "../testing/index.js";
import { type DecodedPacket, DecodeKind, TcpFlag } from "./decoded-packet.js";
import { LinkType } from "./link-type.js";
import { PacketDecoder } from "./packet-decoder.js";

const decoder = new PacketDecoder();

function decode(frame: Uint8Array, linkType: number, snaplen?: number): DecodedPacket {
  return decoder.decode(capturedPacket(frame, { linkType, snaplen }));
}

/** The fields a test compares, with addresses as text. */
function summary(p: DecodedPacket) {
  const addressLength = p.ipVersion === 6 ? 16 : p.ipVersion === 4 ? 4 : 0;
  return {
    kind: p.kind,
    ipVersion: p.ipVersion,
    src: Array.from(p.src.subarray(0, addressLength)).join("."),
    dst: Array.from(p.dst.subarray(0, addressLength)).join("."),
    protocol: p.protocol,
    srcPort: p.srcPort,
    dstPort: p.dstPort,
    ipLength: p.ipLength,
    ipHeaderLength: p.ipHeaderLength,
    transportHeaderLength: p.transportHeaderLength,
    tcpFlags: p.tcpFlags,
    payloadLength: p.payloadLength,
    ipOffset: p.ipOffset,
    transportOffset: p.transportOffset,
    truncated: p.truncated,
    malformed: p.malformed,
  };
}

const v4 = { src: "10.0.0.1", dst: "192.168.1.20" };
const v6 = { src: "2001:db8::1", dst: "fe80::2" };
const v6src = "32.1.13.184.0.0.0.0.0.0.0.0.0.0.0.1";
const v6dst = "254.128.0.0.0.0.0.0.0.0.0.0.0.0.0.2";
const syn = tcp({ srcPort: 40000, dstPort: 443, flags: TcpFlag.SYN, options: [2, 4, 5, 0xb4, 1, 3, 3, 7] });
const dns = udp({ srcPort: 5353, dstPort: 53, payload: 30 });

/** Expected summary of `ipv4(v4, syn)` whose IP header starts at `ipOffset`. */
function synV4(ipOffset: number) {
  return {
    kind: DecodeKind.Tcp,
    ipVersion: 4,
    src: "10.0.0.1",
    dst: "192.168.1.20",
    protocol: 6,
    srcPort: 40000,
    dstPort: 443,
    ipLength: 48,
    ipHeaderLength: 20,
    transportHeaderLength: 28,
    tcpFlags: TcpFlag.SYN,
    payloadLength: 0,
    ipOffset,
    transportOffset: ipOffset + 20,
    truncated: false,
    malformed: false,
  };
}

/** Expected summary of `ipv6(v6, dns)` whose IP header starts at `ipOffset`. */
function dnsV6(ipOffset: number) {
  return {
    kind: DecodeKind.Udp,
    ipVersion: 6,
    src: v6src,
    dst: v6dst,
    protocol: 17,
    srcPort: 5353,
    dstPort: 53,
    ipLength: 78,
    ipHeaderLength: 40,
    transportHeaderLength: 8,
    tcpFlags: 0,
    payloadLength: 30,
    ipOffset,
    transportOffset: ipOffset + 40,
    truncated: false,
    malformed: false,
  };
}

describe("link layers", () => {
  const ip4 = ipv4(v4, syn);
  const ip6 = ipv6(v6, dns);
  const cases: [string, Uint8Array, number, number][] = [
    ["Ethernet", ethernet(ip4), LinkType.ETHERNET, 14],
    ["802.1Q", ethernet(ip4, { vlans: [{ id: 10 }] }), LinkType.ETHERNET, 18],
    ["802.1ad QinQ", ethernet(ip4, { vlans: [{ tpid: 0x88a8, id: 100 }, { id: 10 }] }), LinkType.ETHERNET, 22],
    ["0x9100 QinQ", ethernet(ip4, { vlans: [{ tpid: 0x9100, id: 1 }, { id: 2 }, { id: 3 }] }), LinkType.ETHERNET, 26],
    ["MPLS stack", ethernet(ip4, { mpls: [16, 17, 18] }), LinkType.ETHERNET, 26],
    ["MPLS multicast", ethernet(ip4, { mpls: [16], mplsMulticast: true }), LinkType.ETHERNET, 18],
    ["VLAN + MPLS", ethernet(ip4, { vlans: [{ id: 5 }], mpls: [16] }), LinkType.ETHERNET, 22],
    ["MPLS Ethernet pseudowire", ethernet(ip4, { mpls: [16, 17], pseudowire: true }), LinkType.ETHERNET, 40],
    ["PPPoE", ethernet(ip4, { pppoeSession: 0x1234 }), LinkType.ETHERNET, 22],
    ["802.3 LLC/SNAP", ethernet(ip4, { llcSnap: true }), LinkType.ETHERNET, 22],
    ["802.1Q + 802.3 LLC/SNAP", ethernet(ip4, { vlans: [{ id: 3 }], llcSnap: true }), LinkType.ETHERNET, 26],
    ["raw 101", ip4.bytes, LinkType.RAW, 0],
    ["raw 12", ip4.bytes, LinkType.RAW_12, 0],
    ["raw 14", ip4.bytes, LinkType.RAW_14, 0],
    ["IPv4 228", ip4.bytes, LinkType.IPV4, 0],
    ["SLL", sll(ip4), LinkType.LINUX_SLL, 16],
    ["SLL2", sll2(ip4), LinkType.LINUX_SLL2, 20],
    ["NULL little-endian", loopback(ip4), LinkType.NULL, 4],
    ["NULL big-endian", loopback(ip4, { bigEndian: true }), LinkType.NULL, 4],
    ["LOOP", loopback(ip4, { bigEndian: true }), LinkType.LOOP, 4],
    ["LOOP little-endian", loopback(ip4), LinkType.LOOP, 4],
    ["PPP", ppp(ip4), LinkType.PPP, 2],
    ["PPP with HDLC framing", ppp(ip4, { hdlc: true }), LinkType.PPP, 4],
    ["PPP compressed protocol", ppp(ip4, { compressProtocol: true }), LinkType.PPP, 1],
    ["PPP in HDLC", ppp(ip4, { hdlc: true }), LinkType.PPP_HDLC, 4],
    ["Cisco HDLC in PPP_HDLC", ciscoHdlc(ip4), LinkType.PPP_HDLC, 4],
    ["Cisco HDLC", ciscoHdlc(ip4), LinkType.C_HDLC, 4],
  ];
  it.each(cases)("IPv4 TCP over %s", (_name, frame, linkType, ipOffset) => {
    expect(summary(decode(frame, linkType))).toEqual(synV4(ipOffset));
  });

  // The ids as the frames were built (12 bits; priority bits are not part of the id), outer first, up to three.
  const tag = (id: number, next: number) => Uint8Array.of(0xa0 | (id >> 8), id & 0xff, next >> 8, next & 0xff);
  const vlanCases: [string, Uint8Array, number, number, number[]][] = [
    ["untagged", ethernet(ip4), LinkType.ETHERNET, 0, []],
    ["802.1Q with priority bits", ethernet(ip4, { vlans: [{ id: 4094, priority: 7 }] }), LinkType.ETHERNET, 1, [4094]],
    [
      "802.1ad QinQ",
      ethernet(ip4, { vlans: [{ tpid: 0x88a8, id: 100 }, { id: 10 }] }),
      LinkType.ETHERNET,
      2,
      [100, 10],
    ],
    ["three tags", ethernet(ip4, { vlans: [{ id: 1 }, { id: 2 }, { id: 3 }] }), LinkType.ETHERNET, 3, [1, 2, 3]],
    [
      "four tags",
      ethernet(ip4, { vlans: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] }),
      LinkType.ETHERNET,
      4,
      [1, 2, 3],
    ],
    ["VLAN + MPLS", ethernet(ip4, { vlans: [{ id: 5 }], mpls: [16] }), LinkType.ETHERNET, 1, [5]],
    [
      "SLL carrying a tag",
      sll({ type: 0x8100, bytes: concat(tag(300, 0x0800), ip4.bytes) }),
      LinkType.LINUX_SLL,
      1,
      [300],
    ],
    ["MPLS stack", ethernet(ip4, { mpls: [16, 17, 18] }), LinkType.ETHERNET, 0, []],
  ];
  it.each(vlanCases)("keeps the VLAN ids of %s", (_name, frame, linkType, count, ids) => {
    // Decoded after a tagged frame: the count is the packet's own.
    decode(ethernet(ip4, { vlans: [{ id: 9 }, { id: 8 }, { id: 7 }] }), LinkType.ETHERNET);
    const p = decode(frame, linkType);
    expect(p.kind).toBe(DecodeKind.Tcp);
    expect([p.vlanCount, Array.from(p.vlanIds.subarray(0, Math.min(count, 3)))]).toEqual([count, ids]);
  });

  const cases6: [string, Uint8Array, number, number][] = [
    ["Ethernet", ethernet(ip6), LinkType.ETHERNET, 14],
    ["QinQ", ethernet(ip6, { vlans: [{ tpid: 0x88a8, id: 100 }, { id: 10 }] }), LinkType.ETHERNET, 22],
    ["MPLS", ethernet(ip6, { mpls: [100] }), LinkType.ETHERNET, 18],
    ["PPPoE", ethernet(ip6, { pppoeSession: 1 }), LinkType.ETHERNET, 22],
    ["raw 101", ip6.bytes, LinkType.RAW, 0],
    ["IPv6 229", ip6.bytes, LinkType.IPV6, 0],
    ["SLL", sll(ip6), LinkType.LINUX_SLL, 16],
    ["SLL2", sll2(ip6), LinkType.LINUX_SLL2, 20],
    ["NULL AF 24", loopback(ip6, { family: 24 }), LinkType.NULL, 4],
    ["NULL AF 28", loopback(ip6, { family: 28 }), LinkType.NULL, 4],
    ["NULL AF 30", loopback(ip6, { family: 30 }), LinkType.NULL, 4],
    ["LOOP AF 24 big-endian", loopback(ip6, { family: 24, bigEndian: true }), LinkType.LOOP, 4],
    ["PPP", ppp(ip6), LinkType.PPP, 2],
    ["PPP in HDLC", ppp(ip6, { hdlc: true }), LinkType.PPP_HDLC, 4],
  ];
  it.each(cases6)("IPv6 UDP over %s", (_name, frame, linkType, ipOffset) => {
    expect(summary(decode(frame, linkType))).toEqual(dnsV6(ipOffset));
  });

  it("returns NonIp for non-IP frames", () => {
    const arp: Layer = { type: 0x0806, bytes: new Uint8Array(28) };
    expect(decode(ethernet(arp), LinkType.ETHERNET).kind).toBe(DecodeKind.NonIp);
    expect(decode(sll(arp), LinkType.LINUX_SLL).kind).toBe(DecodeKind.NonIp);
    expect(decode(loopback(ipv4(v4, syn), { family: 7 }), LinkType.NULL).kind).toBe(DecodeKind.NonIp);
    expect(decode(ppp({ type: 0xc021, bytes: new Uint8Array(4) }), LinkType.PPP).kind).toBe(DecodeKind.NonIp);
    // After the bottom MPLS label, a first nibble other than 4, 6 or 0 is neither IP nor a control word.
    const mplsOther = ethernet({ type: 0x0800, bytes: Uint8Array.of(0x50, 0, 0, 0) }, { mpls: [16] });
    expect(decode(mplsOther, LinkType.ETHERNET).kind).toBe(DecodeKind.NonIp);
    const stp = concat(Uint8Array.of(0x42, 0x42, 0x03), new Uint8Array(35));
    expect(decode(ethernet({ type: stp.length, bytes: stp }), LinkType.ETHERNET).kind).toBe(DecodeKind.NonIp);
    const snapOtherOui = concat(Uint8Array.of(0xaa, 0xaa, 0x03, 0, 0, 0x0c, 0x20, 0x00), new Uint8Array(30));
    expect(decode(ethernet({ type: 38, bytes: snapOtherOui }), LinkType.ETHERNET).kind).toBe(DecodeKind.NonIp);
    const p = decode(ethernet({ type: 0x88cc, bytes: new Uint8Array(40) }), LinkType.ETHERNET);
    expect(summary(p)).toMatchObject({ ipVersion: 0, protocol: -1, ipOffset: -1, truncated: false, malformed: false });
  });

  it("returns NonIp for an unknown link type and counts it per link type", () => {
    const own = new PacketDecoder();
    const frame = ethernet(ipv4(v4, syn));
    expect(own.decode(capturedPacket(frame, { linkType: 105 })).kind).toBe(DecodeKind.NonIp);
    own.decode(capturedPacket(frame, { linkType: 105 }));
    own.decode(capturedPacket(frame, { linkType: 147 }));
    own.decode(capturedPacket(frame, { linkType: LinkType.ETHERNET }));
    expect([...own.unknownLinkTypes]).toEqual([
      [105, 2],
      [147, 1],
    ]);
  });

  it("marks raw IP with a version other than 4 or 6 malformed", () => {
    const bytes = ipv4({ ...v4, version: 5 }, syn).bytes;
    expect(summary(decode(bytes, LinkType.RAW))).toMatchObject({ kind: DecodeKind.Undecodable, malformed: true });
    expect(decode(bytes, LinkType.IPV4).malformed).toBe(true);
    expect(decode(ipv6(v6, dns).bytes, LinkType.IPV4).malformed).toBe(true);
    expect(decode(ipv4(v4, syn).bytes, LinkType.IPV6).malformed).toBe(true);
  });

  it("reuses one record for every packet", () => {
    const own = new PacketDecoder();
    const first = own.decode(capturedPacket(ethernet(ipv4(v4, syn)), { linkType: 1 }));
    const second = own.decode(capturedPacket(ethernet(ipv6(v6, dns)), { linkType: 1 }));
    expect(second).toBe(first);
    expect(second).toBe(own.result);
    expect(second.kind).toBe(DecodeKind.Udp);
    expect(second.tcpFlags).toBe(0);
  });
});

describe("reader records", () => {
  it("reads a PacketRecord's bytes in place, within its captured length, with offsets relative to its data", () => {
    const frame = ethernet(ipv4(v4, syn), { vlans: [{ id: 7 }] });
    const buffer = new Uint8Array(100 + frame.length + 50).fill(0xee);
    buffer.set(frame, 100);
    const record = new PacketRecord();
    record.linkType = LinkType.ETHERNET;
    record.originalLength = frame.length;
    record.setBytes(buffer, 100, frame.length);
    expect(summary(new PacketDecoder().decode(record))).toEqual(synV4(18));
    // Bytes after the captured length belong to the next record (0xee here): a cut record must not read them. Cut
    // before the TCP flags byte (Ethernet 14 + VLAN 4 + IPv4 20 + 13 bytes of TCP), its flags are unknown: 0.
    record.setBytes(buffer, 100, 14 + 4 + 20 + 13);
    expect(summary(new PacketDecoder().decode(record))).toEqual({ ...synV4(18), tcpFlags: 0 });
    // Cut inside the ports: truncated.
    record.setBytes(buffer, 100, 14 + 4 + 20 + 3);
    const cutShort = new PacketDecoder().decode(record);
    expect([cutShort.kind, cutShort.truncated, cutShort.srcPort]).toEqual([DecodeKind.Undecodable, true, 0]);
  });
});

describe("one decoder for a stream of packets", () => {
  it("decodes each packet as a fresh decoder would, whatever packet came before (no field left over)", () => {
    // Ethernet + IPv4 takes a shorter path than the other frames: it must still clear what they set, and the
    // other way round.
    const [firstFragment, laterFragment] = fragments(v4, tcp({ srcPort: 1, dstPort: 2, payload: 64 }), 48);
    const arp: Layer = { type: 0x0806, bytes: new Uint8Array(28) };
    const frames: [string, Uint8Array, number, number?][] = [
      ["Ethernet IPv4 TCP", ethernet(ipv4(v4, syn)), LinkType.ETHERNET],
      ["Ethernet IPv6 UDP", ethernet(ipv6(v6, dns)), LinkType.ETHERNET],
      ["802.1Q IPv4", ethernet(ipv4(v4, dns), { vlans: [{ id: 10 }] }), LinkType.ETHERNET],
      ["ARP", ethernet(arp), LinkType.ETHERNET],
      ["first IPv4 fragment", ethernet(firstFragment), LinkType.ETHERNET],
      ["later IPv4 fragment", ethernet(laterFragment), LinkType.ETHERNET],
      ["IPv6 fragment", ethernet(fragments(v6, dns, 16)[1]), LinkType.ETHERNET],
      ["Ethernet cut before its type", ethernet(ipv4(v4, syn)), LinkType.ETHERNET, 13],
      ["IPv4 header cut", ethernet(ipv4(v4, syn)), LinkType.ETHERNET, 14 + 12],
      ["TCP header cut", ethernet(ipv4(v4, syn)), LinkType.ETHERNET, 14 + 20 + 10],
      ["IPv4 with another version", ethernet(ipv4({ ...v4, version: 6 }, syn)), LinkType.ETHERNET],
      ["SLL IPv4", sll(ipv4(v4, syn)), LinkType.LINUX_SLL],
    ];
    const fields = (p: DecodedPacket) => ({
      ...summary(p),
      // Addresses are only valid once the IP header was read whole (see DecodedPacket.src).
      ...(p.ipLength > 0 ? {} : { src: "", dst: "" }),
      isFragment: p.isFragment,
      fragmentId: p.fragmentId,
      fragmentOffset: p.fragmentOffset,
      moreFragments: p.moreFragments,
    });
    const alone = frames.map(([, frame, linkType, snaplen]) =>
      fields(new PacketDecoder().decode(capturedPacket(frame, { linkType, snaplen }))),
    );
    expect(new Set(alone.map((f) => JSON.stringify(f))).size).toBe(frames.length);
    const own = new PacketDecoder();
    for (let before = 0; before < frames.length; before++) {
      for (let after = 0; after < frames.length; after++) {
        const [, frame, linkType, snaplen] = frames[before];
        own.decode(capturedPacket(frame, { linkType, snaplen }));
        const [name, next, nextLinkType, nextSnaplen] = frames[after];
        const decoded = own.decode(capturedPacket(next, { linkType: nextLinkType, snaplen: nextSnaplen }));
        expect({ name, after: frames[before][0], ...fields(decoded) }).toEqual({
          name,
          after: frames[before][0],
          ...alone[after],
        });
      }
    }
  });
});
