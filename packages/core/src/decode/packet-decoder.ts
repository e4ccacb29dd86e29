// Decodes a captured packet down to the transport layer, in place: link layer by LINKTYPE, then IP, then TCP/UDP.

import type { CapturedPacket } from "../capture/packet.js";
import { PacketRecord } from "../capture/packet-record.js";
import { createDecodedPacket, type DecodedPacket, DecodeKind, MAX_VLAN_IDS } from "./decoded-packet.js";
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
    out.tcpWindow = 0;
    out.payloadLength = 0;
    out.vlanCount = 0;
    out.ipOffset = -1;
    out.transportOffset = -1;
    out.isFragment = false;
    out.fragmentId = 0;
    out.fragmentOffset = 0;
    out.moreFragments = false;
    out.truncated = false;
    out.malformed = false;

    // Readers' PacketRecord exposes its buffer and offset: reading through them avoids making a view per packet.
    let d: Uint8Array;
    let base = 0;
    let end: number;
    if (packet instanceof PacketRecord) {
      d = packet.buffer;
      base = packet.offset;
      end = base + packet.capturedLength;
    } else {
      d = packet.data;
      end = d.length;
    }
    const wireEnd = base + (packet.originalLength > end - base ? packet.originalLength : end - base);
    const linkType = packet.linkType;
    // Ethernet + IPv4, most of any capture, straight to the IP layer (what link() and network() would do).
    if (linkType === LinkType.ETHERNET && end - base >= 14 && d[base + 12] === 0x08 && d[base + 13] === 0x00) {
      decodeIpv4(d, base + 14, end, wireEnd, out);
    } else this.link(linkType, d, base, end, wireEnd, out);
    if (base !== 0) {
      if (out.ipOffset >= 0) out.ipOffset -= base;
      if (out.transportOffset >= 0) out.transportOffset -= base;
    }
    return out;
  }

  /** Dispatches on the link type; the frame is `d[o .. end)`, `wireEnd` where it ended on the wire. */
  private link(
    linkType: number,
    d: Uint8Array,
    o: number,
    end: number,
    wireEnd: number,
    out: DecodedPacket,
  ): DecodedPacket {
    const length = end - o;
    switch (linkType) {
      case LinkType.ETHERNET:
        if (length < 14) return cut(out);
        return network(d, o + 14, end, (d[o + 12] << 8) | d[o + 13], wireEnd, out);
      case LinkType.RAW:
      case LinkType.RAW_12:
      case LinkType.RAW_14:
        return rawIp(d, o, end, wireEnd, out);
      case LinkType.IPV4:
        return decodeIpv4(d, o, end, wireEnd, out);
      case LinkType.IPV6:
        return decodeIpv6(d, o, end, wireEnd, out);
      case LinkType.LINUX_SLL:
        if (length < 16) return cut(out);
        return network(d, o + 16, end, (d[o + 14] << 8) | d[o + 15], wireEnd, out);
      case LinkType.LINUX_SLL2:
        if (length < 20) return cut(out);
        return network(d, o + 20, end, (d[o] << 8) | d[o + 1], wireEnd, out);
      case LinkType.NULL:
      case LinkType.LOOP:
        return loopback(d, o, end, wireEnd, out);
      case LinkType.PPP:
        if (length < 2) return cut(out);
        return ppp(d, d[o] === 0xff && d[o + 1] === 0x03 ? o + 2 : o, end, wireEnd, out);
      case LinkType.PPP_HDLC:
      case LinkType.C_HDLC:
        if (length < 4) return cut(out);
        if (d[o] === 0xff) return ppp(d, o + 2, end, wireEnd, out);
        return network(d, o + 4, end, (d[o + 2] << 8) | d[o + 3], wireEnd, out);
      default:
        this.unknownLinkTypes.set(linkType, (this.unknownLinkTypes.get(linkType) ?? 0) + 1);
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
function rawIp(d: Uint8Array, o: number, end: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  if (o >= end) return cut(out);
  const version = d[o] >> 4;
  if (version === 4) decodeIpv4(d, o, end, wireEnd, out);
  else if (version === 6) decodeIpv6(d, o, end, wireEnd, out);
  else {
    out.kind = DecodeKind.Undecodable;
    out.malformed = true;
  }
  return out;
}

/**
 * The network layer after an EtherType, at `o`: VLAN tags (802.1Q, 802.1ad, 0x9100, their ids kept), MPLS label
 * stacks and 802.3 LLC/SNAP headers are peeled off in a loop; PPPoE session frames lead to PPP. Anything else is NonIp.
 */
function network(
  d: Uint8Array,
  o: number,
  end: number,
  type: number,
  wireEnd: number,
  out: DecodedPacket,
): DecodedPacket {
  for (;;) {
    if (type === EtherType.IPV4) {
      return decodeIpv4(d, o, end, wireEnd, out);
    }
    if (type === EtherType.IPV6) {
      return decodeIpv6(d, o, end, wireEnd, out);
    }
    if (type === EtherType.VLAN || type === EtherType.QINQ || type === EtherType.QINQ_OLD) {
      if (o + 4 > end) return cut(out);
      if (out.vlanCount < MAX_VLAN_IDS) out.vlanIds[out.vlanCount] = ((d[o] << 8) | d[o + 1]) & 0x0fff;
      out.vlanCount++;
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
    } else if (type <= 1500) {
      // IEEE 802.3: a length, not a type. Only an LLC/SNAP header (AA AA 03, OUI 0) carries an EtherType on.
      if (o + 3 > end) return cut(out);
      if (d[o] !== 0xaa || d[o + 1] !== 0xaa || d[o + 2] !== 0x03) return out;
      if (o + 8 > end) return cut(out);
      if (d[o + 3] !== 0 || d[o + 4] !== 0 || d[o + 5] !== 0) return out;
      type = (d[o + 6] << 8) | d[o + 7];
      o += 8;
    } else if (type === EtherType.PPPOE_SESSION) {
      if (o + 8 > end) return cut(out);
      return pppProtocol(d, o + 8, end, (d[o + 6] << 8) | d[o + 7], wireEnd, out);
    } else {
      return out;
    }
  }
}

/** PPP header at `o`: a 2-byte protocol, or 1 byte when compressed (protocol-field compression: odd first byte). */
function ppp(d: Uint8Array, o: number, end: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  if (o >= end) return cut(out);
  if ((d[o] & 1) === 1) return pppProtocol(d, o + 1, end, d[o], wireEnd, out);
  if (o + 2 > end) return cut(out);
  return pppProtocol(d, o + 2, end, (d[o] << 8) | d[o + 1], wireEnd, out);
}

function pppProtocol(
  d: Uint8Array,
  o: number,
  end: number,
  protocol: number,
  wireEnd: number,
  out: DecodedPacket,
): DecodedPacket {
  if (protocol === PppProtocol.IPV4) decodeIpv4(d, o, end, wireEnd, out);
  else if (protocol === PppProtocol.IPV6) decodeIpv6(d, o, end, wireEnd, out);
  return out;
}

/** BSD NULL / LOOP: a 4-byte address family, read in whichever byte order gives a small value. */
function loopback(d: Uint8Array, o: number, end: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  if (end - o < 4) return cut(out);
  let family: number;
  if (d[o + 1] === 0 && d[o + 2] === 0 && d[o + 3] === 0) family = d[o];
  else if (d[o] === 0 && d[o + 1] === 0 && d[o + 2] === 0) family = d[o + 3];
  else return out;
  if (family === AddressFamily.INET) decodeIpv4(d, o + 4, end, wireEnd, out);
  else if (
    family === AddressFamily.INET6_BSD ||
    family === AddressFamily.INET6_FREEBSD ||
    family === AddressFamily.INET6_DARWIN
  ) {
    decodeIpv6(d, o + 4, end, wireEnd, out);
  }
  return out;
}
