// Every packet cut at every length decodes without throwing: truncated exactly when cut before its ports, else the
// same packet with what of the TCP header was captured; random bytes never throw.

import { describe, expect, it } from "vitest";
import {
  capturedPacket,
  ciscoHdlc,
  ethernet,
  fragments,
  ipv4,
  ipv6,
  loopback,
  ppp,
  sll,
  sll2,
  tcp,
  udp,
} from "../testing/index.js";
import { DecodeKind } from "./decoded-packet.js";
import { LinkType } from "./link-type.js";
import { PacketDecoder } from "./packet-decoder.js";

const v4 = { src: "192.0.2.1", dst: "198.51.100.2", options: [7, 7, 4, 0, 0, 0, 0] };
const v6 = { src: "2001:db8::1", dst: "2001:db8::2", extensionHeaders: [{ type: 0 as const }, { type: 51 as const }] };
const segment = tcp({
  srcPort: 1234,
  dstPort: 80,
  flags: 0x18,
  options: [1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2],
  payload: 9,
});
const datagram = udp({ srcPort: 53, dstPort: 5353, payload: 7 });

const frames: [string, Uint8Array, number][] = [
  ["Ethernet QinQ IPv4 TCP", ethernet(ipv4(v4, segment), { vlans: [{ tpid: 0x88a8, id: 1 }, { id: 2 }] }), 1],
  ["Ethernet MPLS pseudowire IPv6 UDP", ethernet(ipv6(v6, datagram), { mpls: [20, 21], pseudowire: true }), 1],
  ["PPPoE IPv6 TCP", ethernet(ipv6(v6, segment), { pppoeSession: 3 }), 1],
  ["802.3 LLC/SNAP IPv4 UDP", ethernet(ipv4(v4, datagram), { llcSnap: true }), 1],
  ["raw IPv6 UDP", ipv6(v6, datagram).bytes, LinkType.RAW],
  ["IPv4 first fragment", fragments(v4, segment, 32)[0].bytes, LinkType.IPV4],
  ["IPv6 later fragment", fragments(v6, segment, 16)[1].bytes, LinkType.IPV6],
  ["SLL IPv4 UDP", sll(ipv4(v4, datagram)), LinkType.LINUX_SLL],
  ["SLL2 IPv6 TCP", sll2(ipv6(v6, segment)), LinkType.LINUX_SLL2],
  ["NULL IPv6 TCP", loopback(ipv6(v6, segment), { family: 28 }), LinkType.NULL],
  ["PPP HDLC IPv4 TCP", ppp(ipv4(v4, segment), { hdlc: true }), LinkType.PPP],
  ["Cisco HDLC IPv6 UDP", ciscoHdlc(ipv6(v6, datagram)), LinkType.C_HDLC],
];

describe("truncation sweep", () => {
  it.each(frames)("%s cut at every length", (_name, frame, linkType) => {
    const decoder = new PacketDecoder();
    const full = { ...decoder.decode(capturedPacket(frame, { linkType })) };
    expect(full.truncated || full.malformed).toBe(false);
    expect([DecodeKind.Tcp, DecodeKind.Udp, DecodeKind.FragmentPending]).toContain(full.kind);
    const t = full.transportOffset;
    // What a session needs ends with the ports (a later fragment has none: with its IP header).
    const portsEnd = t > 0 ? t + 4 : full.ipOffset + full.ipHeaderLength;
    const headersEnd = t > 0 ? t + full.transportHeaderLength : portsEnd;
    const fullSrc = full.src.slice();
    const size = full.ipVersion === 4 ? 4 : 16;
    const other = capturedPacket(ethernet(ipv6({ src: "ff::1", dst: "ff::2" }, datagram)), { linkType: 1 });
    for (let cut = 0; cut < frame.length; cut++) {
      decoder.decode(other);
      const p = decoder.decode(capturedPacket(frame, { linkType, snaplen: cut }));
      // Addresses are valid whenever the IP length is known, never left over from the previous packet.
      if (p.ipLength > 0) expect(p.src.subarray(0, size)).toEqual(fullSrc.subarray(0, size));
      expect({ cut, truncated: p.truncated, malformed: p.malformed }).toEqual({
        cut,
        truncated: cut < portsEnd,
        malformed: false,
      });
      const same = { ...p, src: null, dst: null };
      if (cut >= headersEnd) {
        // Complete headers: the same packet, lengths from the IP header.
        expect(same).toEqual({ ...full, src: null, dst: null });
      } else if (cut >= portsEnd) {
        // A TCP header cut after the ports has its data offset (byte 12), flags (byte 13) and window (bytes 14–15)
        // only when captured; a UDP header's length is 8 whatever was captured.
        const lengthKnown = full.kind === DecodeKind.Udp || cut > t + 12;
        const transportHeaderLength = lengthKnown ? full.transportHeaderLength : 0;
        expect({ cut, ...same }).toEqual({
          cut,
          ...full,
          src: null,
          dst: null,
          transportHeaderLength,
          tcpFlags: cut > t + 13 ? full.tcpFlags : 0,
          tcpWindow: cut > t + 15 ? full.tcpWindow : 0,
          payloadLength: full.ipLength - full.ipHeaderLength - transportHeaderLength,
        });
      } else {
        expect(p.kind).toBe(DecodeKind.Undecodable);
        expect([p.srcPort, p.dstPort]).toEqual([0, 0]);
      }
    }
  });
});

describe("random input", () => {
  it("never throws and keeps lengths consistent", () => {
    let seed = 0x2545f491;
    const random = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 0x100000000;
    };
    const linkTypes = [0, 1, 9, 12, 14, 50, 101, 104, 108, 113, 228, 229, 276, 147];
    const seeds = frames.map(([, frame]) => frame);
    const decoder = new PacketDecoder();
    let decodedTransport = 0;
    for (let i = 0; i < 20_000; i++) {
      // Half mutations of valid frames (so that deep headers are reached), half pure noise.
      const base = seeds[i % seeds.length];
      const bytes = i % 2 === 0 ? base.slice() : new Uint8Array(Math.floor(random() * 120));
      for (let m = 0; m < (i % 2 === 0 ? 1 + (i % 4) : bytes.length); m++) {
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      }
      const linkType = i % 2 === 0 ? frames[i % frames.length][2] : linkTypes[i % linkTypes.length];
      const p = decoder.decode(
        capturedPacket(bytes, { linkType, snaplen: i % 4 === 0 ? Math.floor(random() * bytes.length) : undefined }),
      );
      if (p.kind === DecodeKind.Tcp || p.kind === DecodeKind.Udp) {
        decodedTransport++;
        expect(p.ipHeaderLength + p.transportHeaderLength + p.payloadLength).toBe(p.ipLength);
        expect(p.payloadLength).toBeGreaterThanOrEqual(0);
        expect(p.transportOffset).toBe(p.ipOffset + p.ipHeaderLength);
      }
      if (p.kind === DecodeKind.Undecodable) expect(p.truncated !== p.malformed).toBe(true);
      else expect(p.malformed).toBe(false);
    }
    expect(decodedTransport).toBeGreaterThan(1000);
  });
});
