// Test-only builders for link-layer frames, CapturedPacket records and small classic pcap files.

import type { CapturedPacket } from "../capture/packet.js";
import { concat, type Layer } from "./ip-builder.js";

export interface VlanTag {
  /** Tag protocol identifier: 0x8100 (802.1Q, default), 0x88a8 (802.1ad) or 0x9100. */
  tpid?: number;
  id: number;
  priority?: number;
}

export interface EthernetOptions {
  src?: string;
  dst?: string;
  /** Tags from the outermost in. */
  vlans?: VlanTag[];
  /** MPLS labels from the top of the stack; the last one gets the bottom-of-stack bit. */
  mpls?: number[];
  /** With `mpls`: carry the inner layer as an Ethernet pseudowire (control word + Ethernet frame). */
  pseudowire?: boolean;
  /** Carry the inner layer in a PPPoE session frame with this session id. */
  pppoeSession?: number;
  /** MPLS multicast EtherType (0x8848) instead of unicast. */
  mplsMulticast?: boolean;
  /** IEEE 802.3 framing: a length field, then an LLC/SNAP header carrying the EtherType. */
  llcSnap?: boolean;
}

function u16(v: number): Uint8Array {
  return Uint8Array.of((v >>> 8) & 0xff, v & 0xff);
}

function mac(text: string | undefined, fallback: number): Uint8Array {
  if (text === undefined) return Uint8Array.of(0x02, 0, 0, 0, 0, fallback);
  return Uint8Array.from(text.split(":").map((h) => Number.parseInt(h, 16)));
}

/** PPP protocol number for an IP layer (0x0021 IPv4, 0x0057 IPv6); other layers keep their type. */
function pppProtocolOf(inner: Layer): number {
  if (inner.type === 0x0800) return 0x0021;
  if (inner.type === 0x86dd) return 0x0057;
  return inner.type;
}

export function ethernet(inner: Layer, o: EthernetOptions = {}): Uint8Array {
  let type = inner.type;
  let body = inner.bytes;
  if (o.pppoeSession !== undefined) {
    const header = Uint8Array.of(
      0x11,
      0x00,
      ...u16(o.pppoeSession),
      ...u16(body.length + 2),
      ...u16(pppProtocolOf(inner)),
    );
    body = concat(header, body);
    type = 0x8864;
  }
  if (o.mpls && o.mpls.length > 0) {
    if (o.pseudowire) body = concat(new Uint8Array(4), ethernet({ type, bytes: body }));
    const labels = o.mpls.map((label, i) => {
      const bottom = i === o.mpls!.length - 1 ? 1 : 0;
      return Uint8Array.of((label >>> 12) & 0xff, (label >>> 4) & 0xff, ((label & 0xf) << 4) | bottom, 64);
    });
    body = concat(...labels, body);
    type = o.mplsMulticast ? 0x8848 : 0x8847;
  }
  if (o.llcSnap) {
    body = concat(Uint8Array.of(0xaa, 0xaa, 0x03, 0, 0, 0), u16(type), body);
    type = body.length;
  }
  const tags = (o.vlans ?? []).map((tag, i, all) => {
    const next = i + 1 < all.length ? (all[i + 1].tpid ?? 0x8100) : type;
    return concat(u16(((tag.priority ?? 0) << 13) | tag.id), u16(next));
  });
  const outerType = o.vlans && o.vlans.length > 0 ? (o.vlans[0].tpid ?? 0x8100) : type;
  return concat(mac(o.dst, 2), mac(o.src, 1), u16(outerType), ...tags, body);
}

/** Linux cooked capture v1 (LINKTYPE_LINUX_SLL, 113): 16-byte header ending with the EtherType. */
export function sll(inner: Layer, o: { packetType?: number; arphrd?: number } = {}): Uint8Array {
  const header = concat(u16(o.packetType ?? 0), u16(o.arphrd ?? 1), u16(6), mac(undefined, 1), new Uint8Array(2));
  return concat(header, u16(inner.type), inner.bytes);
}

/** Linux cooked capture v2 (LINKTYPE_LINUX_SLL2, 276): 20-byte header starting with the EtherType. */
export function sll2(inner: Layer, o: { interfaceIndex?: number; packetType?: number } = {}): Uint8Array {
  const index = o.interfaceIndex ?? 1;
  const header = concat(u16(inner.type), new Uint8Array(2), u16(index >>> 16), u16(index & 0xffff), u16(1));
  return concat(header, Uint8Array.of(o.packetType ?? 0, 6), mac(undefined, 1), new Uint8Array(2), inner.bytes);
}

/**
 * BSD loopback (LINKTYPE_NULL 0 in the capturing host's byte order, LINKTYPE_LOOP 108 big-endian):
 * a 4-byte address family (default 2 for IPv4, 30 for IPv6).
 */
export function loopback(inner: Layer, o: { family?: number; bigEndian?: boolean } = {}): Uint8Array {
  const family = o.family ?? (inner.type === 0x86dd ? 30 : 2);
  const header = o.bigEndian ? Uint8Array.of(0, 0, 0, family) : Uint8Array.of(family, 0, 0, 0);
  return concat(header, inner.bytes);
}

/** PPP (LINKTYPE_PPP 9 / PPP_HDLC 50): optional 0xff 0x03 framing, protocol field of 2 bytes or 1 (compressed). */
export function ppp(inner: Layer, o: { hdlc?: boolean; compressProtocol?: boolean } = {}): Uint8Array {
  const protocol = pppProtocolOf(inner);
  const field = o.compressProtocol ? Uint8Array.of(protocol) : u16(protocol);
  return concat(o.hdlc ? Uint8Array.of(0xff, 0x03) : new Uint8Array(0), field, inner.bytes);
}

/** Cisco HDLC (LINKTYPE_C_HDLC 104, or PPP_HDLC 50 with address 0x0f): address, control, EtherType. */
export function ciscoHdlc(inner: Layer): Uint8Array {
  return concat(Uint8Array.of(0x0f, 0x00), u16(inner.type), inner.bytes);
}

export interface PacketOptions {
  linkType: number;
  tsSec?: number;
  tsNsec?: number;
  /** Keep only this many bytes (originalLength stays the full length), like a capture's snaplen. */
  snaplen?: number;
  index?: number;
  interfaceIndex?: number;
}

/** A CapturedPacket around `frame`, as a reader would deliver it. */
export function capturedPacket(frame: Uint8Array, o: PacketOptions): CapturedPacket {
  const data = o.snaplen !== undefined && o.snaplen < frame.length ? frame.subarray(0, o.snaplen) : frame;
  return {
    tsSec: o.tsSec ?? 1_700_000_000,
    tsNsec: o.tsNsec ?? 0,
    capturedLength: data.length,
    originalLength: frame.length,
    linkType: o.linkType,
    interfaceIndex: o.interfaceIndex ?? 0,
    data,
    fileOffset: 0,
    index: o.index ?? 0,
  };
}

/**
 * A little-endian classic pcap file holding `packets` (all must share one link type), with microsecond
 * timestamps unless `nanosecond`. Captured and original lengths are kept as given.
 */
export function pcapFile(packets: CapturedPacket[], o: { nanosecond?: boolean; snaplen?: number } = {}): Uint8Array {
  const linkType = packets.length > 0 ? packets[0].linkType : 1;
  const header = new DataView(new ArrayBuffer(24));
  header.setUint32(0, o.nanosecond ? 0xa1b23c4d : 0xa1b2c3d4, true);
  header.setUint16(4, 2, true);
  header.setUint16(6, 4, true);
  header.setUint32(16, o.snaplen ?? 262144, true);
  header.setUint32(20, linkType, true);
  const parts: Uint8Array[] = [new Uint8Array(header.buffer)];
  for (const p of packets) {
    if (p.linkType !== linkType) throw new Error("pcapFile: every packet must have the same link type");
    const record = new DataView(new ArrayBuffer(16));
    record.setUint32(0, p.tsSec, true);
    record.setUint32(4, o.nanosecond ? p.tsNsec : Math.floor(p.tsNsec / 1000), true);
    record.setUint32(8, p.data.length, true);
    record.setUint32(12, p.originalLength, true);
    parts.push(new Uint8Array(record.buffer), p.data);
  }
  return concat(...parts);
}
