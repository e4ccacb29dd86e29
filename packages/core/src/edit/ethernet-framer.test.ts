import { describe, expect, it } from "vitest";
import { LinkType } from "../decode/link-type.js";
import { PacketDecoder } from "../decode/packet-decoder.js";
import { concat, ipv4, ipv6, type Layer, udp } from "../testing/ip-builder.js";
import { capturedPacket, ethernet, loopback, sll2 } from "../testing/link-builder.js";
import { EthernetFramer, OPAQUE_ETHERTYPE } from "./ethernet-framer.js";

const v4 = ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, udp({ srcPort: 1234, dstPort: 53, payload: 12 }));
const v6 = ipv6({ src: "2001:db8::1", dst: "2001:db8::2" }, udp({ srcPort: 1234, dstPort: 53, payload: 12 }));
const arp: Layer = { type: 0x0806, bytes: Uint8Array.from({ length: 28 }, (_, i) => i + 1) };

function framed(frame: Uint8Array, linkType: number, snaplen?: number) {
  const packet = capturedPacket(frame, { linkType, snaplen, tsSec: 1_700_000_123, tsNsec: 456_789_012, index: 7 });
  const decoder = new PacketDecoder();
  return { packet, out: new EthernetFramer().frame(packet, decoder.decode(packet)) };
}

/** The 14-byte header the framer writes: zero addresses, then `type`. */
function header(type: number): number[] {
  return [...new Array(12).fill(0), type >>> 8, type & 255];
}

describe("EthernetFramer", () => {
  it("passes an Ethernet frame through as it is", () => {
    const { packet, out } = framed(ethernet(v4), LinkType.ETHERNET);
    expect(out).toBe(packet);
  });

  it("puts an Ethernet header in place of a Linux cooked v2 header, keeping the IP bytes, times and position", () => {
    const { packet, out } = framed(sll2(v4), LinkType.LINUX_SLL2);
    expect(Array.from(out.data)).toEqual([...header(0x0800), ...v4.bytes]);
    expect(out.linkType).toBe(LinkType.ETHERNET);
    expect([out.capturedLength, out.originalLength]).toEqual([14 + v4.bytes.length, 14 + v4.bytes.length]);
    expect([out.tsSec, out.tsNsec, out.index]).toEqual([packet.tsSec, packet.tsNsec, 7]);
  });

  it("gives IPv6 behind a loopback header the IPv6 EtherType", () => {
    const { out } = framed(loopback(v6, { bigEndian: true }), LinkType.LOOP);
    expect(Array.from(out.data)).toEqual([...header(0x86dd), ...v6.bytes]);
  });

  it("keeps a packet cut by the snaplen cut, and its original length as on the wire less the replaced header", () => {
    const { out } = framed(sll2(v4), LinkType.LINUX_SLL2, 20 + 24);
    expect(Array.from(out.data)).toEqual([...header(0x0800), ...v4.bytes.subarray(0, 24)]);
    expect(out.originalLength).toBe(14 + v4.bytes.length);
  });

  it("carries a packet without IP whole behind the opaque EtherType, so that it is still counted", () => {
    const frame = sll2(arp);
    const { out } = framed(frame, LinkType.LINUX_SLL2);
    expect(Array.from(out.data)).toEqual([...header(OPAQUE_ETHERTYPE), ...frame]);
    expect(out.originalLength).toBe(14 + frame.length);
  });

  it("keeps the VLAN ids of a tagged packet as 802.1Q tags, outer first, so Suricata keys its flow by them", () => {
    // 802.1ad tag 100 (priority 5), then 802.1Q tag 10, inside a Linux cooked v2 header.
    const tagged: Layer = {
      type: 0x88a8,
      bytes: concat(Uint8Array.of(0xa0, 100, 0x81, 0x00, 0, 10, 0x08, 0x00), v4.bytes),
    };
    const { out } = framed(sll2(tagged), LinkType.LINUX_SLL2);
    expect(Array.from(out.data)).toEqual([...header(0x8100), 0, 100, 0x81, 0x00, 0, 10, 0x08, 0x00, ...v4.bytes]);
    expect([out.capturedLength, out.originalLength]).toEqual([22 + v4.bytes.length, 22 + v4.bytes.length]);
  });

  it("carries a packet with more VLAN tags than Suricata decodes whole behind the opaque EtherType", () => {
    const tags = concat(...[1, 2, 3].map((id) => Uint8Array.of(0, id, 0x81, 0x00)), Uint8Array.of(0, 4, 0x08, 0x00));
    const frame = sll2({ type: 0x8100, bytes: concat(tags, v4.bytes) });
    const { out } = framed(frame, LinkType.LINUX_SLL2);
    expect(Array.from(out.data)).toEqual([...header(OPAQUE_ETHERTYPE), ...frame]);
  });

  it("reuses its buffer and grows it for a packet longer than it", () => {
    const framer = new EthernetFramer();
    const decoder = new PacketDecoder();
    const big = ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, udp({ srcPort: 1, dstPort: 2, payload: 65_000 }));
    for (const inner of [v4, big, v6]) {
      const packet = capturedPacket(loopback(inner), { linkType: LinkType.NULL });
      const out = framer.frame(packet, decoder.decode(packet));
      expect(Array.from(out.data.subarray(14))).toEqual(Array.from(inner.bytes));
    }
  });
});
