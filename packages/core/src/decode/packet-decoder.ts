// Decodes a captured packet down to the transport layer, in place: link layer by LINKTYPE, then IP, then TCP/UDP.

import type { CapturedPacket } from "../capture/packet.js";
import { createDecodedPacket, type DecodedPacket, DecodeKind } from "./decoded-packet.js";
import { decodeIpv4, decodeIpv6 } from "./ip-layer.js";
import { AddressFamily, EtherType, LinkType, PppProtocol } from "./link-type.js";

/**
 * One decoder per packet stream. `decode()` refills and returns the same record every time (`result`),
 * so a caller copies what must outlive the next call. It never throws on packet content.
 */
export class PacketDecoder {
  /** The record every `decode()` call refills and returns. */
  readonly result: DecodedPacket = createDecodedPacket();
  /** Packets whose link type the decoder does not know (returned as NonIp), by link type. */
  readonly unknownLinkTypes = new Map<number, number>();

  decode(packet: CapturedPacket): DecodedPacket {
    const out = this.result;
    out.kind = DecodeKind.NonIp;
    out.ipVersion = 0;
    out.protocol = -1;
    out.srcPort = 0;
    out.dstPort = 0;
    out.ipLength = 0;
    out.ipHeaderLength = 0;
    out.transportHeaderLength = 0;
    out.tcpFlags = 0;
    out.payloadLength = 0;
    out.ipOffset = -1;
    out.transportOffset = -1;
    out.isFragment = false;
    out.fragmentId = 0;
    out.fragmentOffset = 0;
    out.moreFragments = false;
    out.truncated = false;
    out.malformed = false;

    const d = packet.data;
    const end = d.length;
    const wireEnd = packet.originalLength > end ? packet.originalLength : end;
    switch (packet.linkType) {
      case LinkType.ETHERNET:
        if (end < 14) return cut(out);
        return network(d, 14, (d[12] << 8) | d[13], wireEnd, out);
      case LinkType.RAW:
      case LinkType.RAW_12:
      case LinkType.RAW_14:
        return rawIp(d, 0, wireEnd, out);
      case LinkType.IPV4:
        return decodeIpv4(d, 0, wireEnd, out);
      case LinkType.IPV6:
        return decodeIpv6(d, 0, wireEnd, out);
      case LinkType.LINUX_SLL:
        if (end < 16) return cut(out);
        return network(d, 16, (d[14] << 8) | d[15], wireEnd, out);
      case LinkType.LINUX_SLL2:
        if (end < 20) return cut(out);
        return network(d, 20, (d[0] << 8) | d[1], wireEnd, out);
      case LinkType.NULL:
      case LinkType.LOOP:
        return loopback(d, wireEnd, out);
      case LinkType.PPP:
        if (end < 2) return cut(out);
        return ppp(d, d[0] === 0xff && d[1] === 0x03 ? 2 : 0, wireEnd, out);
      case LinkType.PPP_HDLC:
      case LinkType.C_HDLC:
        if (end < 4) return cut(out);
        if (d[0] === 0xff) return ppp(d, 2, wireEnd, out);
        return network(d, 4, (d[2] << 8) | d[3], wireEnd, out);
      default:
        this.unknownLinkTypes.set(packet.linkType, (this.unknownLinkTypes.get(packet.linkType) ?? 0) + 1);
        return out;
    }
  }
}

/** The capture ends inside the link-layer header. */
function cut(out: DecodedPacket): DecodedPacket {
  out.kind = DecodeKind.Undecodable;
  out.truncated = true;
  return out;
}

/** IP whose version the first nibble gives (raw IP link types); anything but 4 or 6 is malformed. */
function rawIp(d: Uint8Array, o: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  if (o >= d.length) return cut(out);
  const version = d[o] >> 4;
  if (version === 4) decodeIpv4(d, o, wireEnd, out);
  else if (version === 6) decodeIpv6(d, o, wireEnd, out);
  else {
    out.kind = DecodeKind.Undecodable;
    out.malformed = true;
  }
  return out;
}

/**
 * The network layer after an EtherType at `o`: VLAN tags (802.1Q, 802.1ad, 0x9100) and MPLS label stacks are
 * peeled off in a loop; PPPoE session frames lead to PPP. Anything else is NonIp.
 */
function network(d: Uint8Array, o: number, type: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  const end = d.length;
  for (;;) {
    if (type === EtherType.IPV4) {
      return decodeIpv4(d, o, wireEnd, out);
    }
    if (type === EtherType.IPV6) {
      return decodeIpv6(d, o, wireEnd, out);
    }
    if (type === EtherType.VLAN || type === EtherType.QINQ || type === EtherType.QINQ_OLD) {
      if (o + 4 > end) return cut(out);
      type = (d[o + 2] << 8) | d[o + 3];
      o += 4;
    } else if (type === EtherType.MPLS_UNICAST || type === EtherType.MPLS_MULTICAST) {
      let bottom = false;
      while (!bottom) {
        if (o + 4 > end) return cut(out);
        bottom = (d[o + 2] & 1) === 1;
        o += 4;
      }
      if (o >= end) return cut(out);
      const nibble = d[o] >> 4;
      if (nibble === 4) type = EtherType.IPV4;
      else if (nibble === 6) type = EtherType.IPV6;
      else if (nibble === 0) {
        // RFC 4385 pseudowire control word (first nibble 0), then an Ethernet frame (Ethernet pseudowire).
        if (o + 18 > end) return cut(out);
        type = (d[o + 16] << 8) | d[o + 17];
        o += 18;
      } else return out;
    } else if (type === EtherType.PPPOE_SESSION) {
      if (o + 8 > end) return cut(out);
      return pppProtocol(d, o + 8, (d[o + 6] << 8) | d[o + 7], wireEnd, out);
    } else {
      return out;
    }
  }
}

/** PPP header at `o`: a 2-byte protocol, or 1 byte when compressed (protocol-field compression: odd first byte). */
function ppp(d: Uint8Array, o: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  if (o >= d.length) return cut(out);
  if ((d[o] & 1) === 1) return pppProtocol(d, o + 1, d[o], wireEnd, out);
  if (o + 2 > d.length) return cut(out);
  return pppProtocol(d, o + 2, (d[o] << 8) | d[o + 1], wireEnd, out);
}

function pppProtocol(d: Uint8Array, o: number, protocol: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  if (protocol === PppProtocol.IPV4) decodeIpv4(d, o, wireEnd, out);
  else if (protocol === PppProtocol.IPV6) decodeIpv6(d, o, wireEnd, out);
  return out;
}

/** BSD NULL / LOOP: a 4-byte address family, read in whichever byte order gives a small value. */
function loopback(d: Uint8Array, wireEnd: number, out: DecodedPacket): DecodedPacket {
  if (d.length < 4) return cut(out);
  let family: number;
  if (d[1] === 0 && d[2] === 0 && d[3] === 0) family = d[0];
  else if (d[0] === 0 && d[1] === 0 && d[2] === 0) family = d[3];
  else return out;
  if (family === AddressFamily.INET) decodeIpv4(d, 4, wireEnd, out);
  else if (
    family === AddressFamily.INET6_BSD ||
    family === AddressFamily.INET6_FREEBSD ||
    family === AddressFamily.INET6_DARWIN
  ) {
    decodeIpv6(d, 4, wireEnd, out);
  }
  return out;
}
