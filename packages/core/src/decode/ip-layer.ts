// IPv4 (options, fragments), IPv6 (extension headers, fragments), TCP and UDP, decoded into the reused DecodedPacket.
// Rule for every header: first check it against the lengths the packet itself announces (inconsistent → malformed),
// then against the captured bytes (missing → truncated). Truncated means cut before what a session needs: the IP
// header and the ports. A packet cut after its ports keeps its kind, with what of the TCP header was captured.

import { type DecodedPacket, DecodeKind } from "./decoded-packet.js";

const TCP = 6;
const UDP = 17;
const IPV6_HOP_BY_HOP = 0;
const IPV6_ROUTING = 43;
const IPV6_FRAGMENT = 44;
const AUTH_HEADER = 51;
const IPV6_DEST_OPTIONS = 60;

function truncatedHeader(out: DecodedPacket): DecodedPacket {
  out.kind = DecodeKind.Undecodable;
  out.truncated = true;
  return out;
}

/** Inconsistent headers outrank a cut capture: an undecodable packet has exactly one reason. */
function malformedHeader(out: DecodedPacket): DecodedPacket {
  out.kind = DecodeKind.Undecodable;
  out.malformed = true;
  out.truncated = false;
  return out;
}

/**
 * IPv4 at offset `o` of `d`, whose captured bytes end at `end`; `wireEnd` is where the packet ended on the wire.
 * A total length of 0 (TCP segmentation offload seen on the sending host) is replaced by the on-wire length.
 */
export function decodeIpv4(d: Uint8Array, o: number, end: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  out.ipOffset = o;
  if (o >= end) return truncatedHeader(out);
  if (d[o] >> 4 !== 4) return malformedHeader(out);
  out.ipVersion = 4;
  if (o + 20 > end) return truncatedHeader(out);
  const headerLength = (d[o] & 0x0f) << 2;
  let total = (d[o + 2] << 8) | d[o + 3];
  if (total === 0) total = wireEnd - o;
  const src = out.src;
  const dst = out.dst;
  src[0] = d[o + 12];
  src[1] = d[o + 13];
  src[2] = d[o + 14];
  src[3] = d[o + 15];
  dst[0] = d[o + 16];
  dst[1] = d[o + 17];
  dst[2] = d[o + 18];
  dst[3] = d[o + 19];
  out.protocol = d[o + 9];
  if (headerLength < 20 || total < headerLength) return malformedHeader(out);
  out.ipLength = total;
  out.ipHeaderLength = headerLength;
  if (o + headerLength > end) return truncatedHeader(out);
  const ipEnd = o + total;
  const flagsOffset = (d[o + 6] << 8) | d[o + 7];
  const fragmentOffset = (flagsOffset & 0x1fff) << 3;
  const more = (flagsOffset & 0x2000) !== 0;
  if (more || fragmentOffset !== 0) {
    out.isFragment = true;
    out.fragmentId = (d[o + 4] << 8) | d[o + 5];
    out.fragmentOffset = fragmentOffset;
    out.moreFragments = more;
    if (fragmentOffset !== 0) return laterFragment(out);
  }
  let t = o + headerLength;
  // IPsec AH sits between IP and the transport; skipping it keeps the ports of AH-protected traffic.
  while (out.protocol === AUTH_HEADER) {
    if (t + 8 > ipEnd) return malformedHeader(out);
    if (t + 8 > end) return truncatedHeader(out);
    const length = (d[t + 1] + 2) << 2;
    if (t + length > ipEnd) return malformedHeader(out);
    out.protocol = d[t];
    t += length;
    out.ipHeaderLength = t - o;
  }
  return decodeTransport(d, t, end, ipEnd, out);
}

/**
 * IPv6 at offset `o` (bytes up to `end`, on the wire up to `wireEnd`), walking hop-by-hop, routing, destination options, fragment and AH headers.
 * A payload length of 0 with a next header other than "no next header" (a jumbogram, or segmentation offload)
 * takes its length from the wire instead.
 */
export function decodeIpv6(d: Uint8Array, o: number, end: number, wireEnd: number, out: DecodedPacket): DecodedPacket {
  out.ipOffset = o;
  if (o >= end) return truncatedHeader(out);
  if (d[o] >> 4 !== 6) return malformedHeader(out);
  out.ipVersion = 6;
  if (o + 40 > end) return truncatedHeader(out);
  const src = out.src;
  const dst = out.dst;
  for (let i = 0; i < 16; i++) {
    src[i] = d[o + 8 + i];
    dst[i] = d[o + 24 + i];
  }
  let next = d[o + 6];
  const payloadLength = (d[o + 4] << 8) | d[o + 5];
  let total = 40 + payloadLength;
  if (payloadLength === 0 && next !== 59 && wireEnd - o > 40) total = wireEnd - o;
  out.ipLength = total;
  out.ipHeaderLength = 40;
  out.protocol = next;
  const ipEnd = o + total;
  let h = o + 40;
  for (;;) {
    if (next === IPV6_FRAGMENT) {
      if (h + 8 > ipEnd) return malformedHeader(out);
      if (h + 8 > end) return truncatedHeader(out);
      const offsetFlags = (d[h + 2] << 8) | d[h + 3];
      const fragmentOffset = offsetFlags & 0xfff8;
      const more = (offsetFlags & 1) !== 0;
      next = d[h];
      h += 8;
      out.protocol = next;
      out.ipHeaderLength = h - o;
      if (more || fragmentOffset !== 0) {
        out.isFragment = true;
        out.fragmentId = ((d[h - 4] << 24) | (d[h - 3] << 16) | (d[h - 2] << 8) | d[h - 1]) >>> 0;
        out.fragmentOffset = fragmentOffset;
        out.moreFragments = more;
        if (fragmentOffset !== 0) return laterFragment(out);
      }
    } else if (
      next === IPV6_HOP_BY_HOP ||
      next === IPV6_ROUTING ||
      next === IPV6_DEST_OPTIONS ||
      next === AUTH_HEADER
    ) {
      if (h + 8 > ipEnd) return malformedHeader(out);
      if (h + 8 > end) return truncatedHeader(out);
      const length = next === AUTH_HEADER ? (d[h + 1] + 2) << 2 : (d[h + 1] + 1) << 3;
      if (h + length > ipEnd) return malformedHeader(out);
      if (h + length > end) return truncatedHeader(out);
      next = d[h];
      h += length;
      out.protocol = next;
      out.ipHeaderLength = h - o;
    } else {
      break;
    }
  }
  return decodeTransport(d, h, end, ipEnd, out);
}

/** A fragment after the first: no transport header; TCP/UDP ones wait for a FragmentTracker to learn their ports. */
function laterFragment(out: DecodedPacket): DecodedPacket {
  out.payloadLength = out.ipLength - out.ipHeaderLength;
  const protocol = out.protocol;
  out.kind = protocol === TCP || protocol === UDP ? DecodeKind.FragmentPending : DecodeKind.OtherIp;
  return out;
}

/**
 * TCP or UDP header at `t`; the IP datagram (per its header) ends at `ipEnd`. The ports (the first 4 bytes) must be
 * captured. A TCP header cut after them gives what was captured: its length when the data-offset byte (12) is there,
 * its flags when the flags byte (13) is, its window when both window bytes (14, 15) are; otherwise 0 (docs/formats.md,
 * "Truncated and malformed").
 */
function decodeTransport(d: Uint8Array, t: number, end: number, ipEnd: number, out: DecodedPacket): DecodedPacket {
  const protocol = out.protocol;
  if (protocol === TCP) {
    out.transportOffset = t;
    if (t + 20 > ipEnd) return malformedHeader(out);
    if (t + 4 > end) return truncatedHeader(out);
    let headerLength = 0;
    if (t + 12 < end) {
      headerLength = (d[t + 12] >> 4) << 2;
      if (headerLength < 20 || t + headerLength > ipEnd) return malformedHeader(out);
      if (t + 13 < end) out.tcpFlags = d[t + 13];
      if (t + 15 < end) out.tcpWindow = (d[t + 14] << 8) | d[t + 15];
    }
    out.srcPort = (d[t] << 8) | d[t + 1];
    out.dstPort = (d[t + 2] << 8) | d[t + 3];
    out.transportHeaderLength = headerLength;
    out.payloadLength = ipEnd - t - headerLength;
    out.kind = DecodeKind.Tcp;
  } else if (protocol === UDP) {
    out.transportOffset = t;
    if (t + 8 > ipEnd) return malformedHeader(out);
    if (t + 4 > end) return truncatedHeader(out);
    out.srcPort = (d[t] << 8) | d[t + 1];
    out.dstPort = (d[t + 2] << 8) | d[t + 3];
    out.transportHeaderLength = 8;
    out.payloadLength = ipEnd - t - 8;
    out.kind = DecodeKind.Udp;
  } else {
    out.payloadLength = ipEnd - t;
    out.kind = DecodeKind.OtherIp;
  }
  return out;
}
