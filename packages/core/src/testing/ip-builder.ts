// Test-only builders for IPv4/IPv6 (options, extension headers, fragments), TCP and UDP with valid checksums.
import { parseIpAddress } from "../net/ip-address.js";

/** A built layer: its bytes and the number the enclosing layer announces it with (IP protocol or EtherType). */
export interface Layer {
  type: number;
  bytes: Uint8Array;
}

export interface TcpOptions {
  srcPort: number;
  dstPort: number;
  /** TCP flags byte (see TcpFlag). Default ACK. */
  flags?: number;
  seq?: number;
  ack?: number;
  window?: number;
  urgentPointer?: number;
  /** Option bytes; padded with end-of-option-list bytes to a multiple of 4. */
  options?: ArrayLike<number>;
  /** Payload bytes, or a length of zero-filled payload. */
  payload?: Uint8Array | number;
  /** Overrides the data offset field (32-bit words), for malformed-header tests. */
  dataOffset?: number;
}

export interface UdpOptions {
  srcPort: number;
  dstPort: number;
  payload?: Uint8Array | number;
  /** Overrides the UDP length field. */
  length?: number;
}

export interface Ipv4Options {
  src: string;
  dst: string;
  ttl?: number;
  id?: number;
  tos?: number;
  /** Option bytes; padded with end-of-option-list bytes to a multiple of 4. */
  options?: ArrayLike<number>;
  dontFragment?: boolean;
  moreFragments?: boolean;
  /** Fragment offset in bytes (a multiple of 8). */
  fragmentOffset?: number;
  /** Overrides for malformed-header tests. */
  version?: number;
  headerWords?: number;
  totalLength?: number;
}

export interface Ipv6ExtensionHeader {
  /** 0 hop-by-hop, 43 routing, 60 destination options, 51 authentication header. */
  type: 0 | 43 | 51 | 60;
  /** Total length in bytes: a multiple of 8 (default 8); a multiple of 4 and at least 12 for AH (default 16). */
  length?: number;
}

export interface Ipv6Options {
  src: string;
  dst: string;
  hopLimit?: number;
  flowLabel?: number;
  trafficClass?: number;
  extensionHeaders?: Ipv6ExtensionHeader[];
  /** Adds a fragment header after the extension headers. */
  fragment?: { id: number; offset: number; more: boolean };
  /** Overrides for malformed-header tests. */
  version?: number;
  payloadLength?: number;
}

function bytesOf(payload: Uint8Array | number | undefined): Uint8Array {
  if (payload === undefined) return new Uint8Array(0);
  if (typeof payload === "number") return new Uint8Array(payload);
  return payload;
}

function padded(options: ArrayLike<number> | undefined): Uint8Array {
  const length = options ? options.length : 0;
  const out = new Uint8Array((length + 3) & ~3);
  if (options) out.set(Array.from(options));
  return out;
}

function put16(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 8) & 0xff;
  b[o + 1] = v & 0xff;
}

function put32(b: Uint8Array, o: number, v: number): void {
  put16(b, o, (v >>> 16) & 0xffff);
  put16(b, o + 2, v & 0xffff);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The Internet checksum (one's complement of the one's-complement sum of 16-bit words) over the parts. */
function checksum(parts: Uint8Array[]): number {
  const all = concat(...parts);
  let sum = 0;
  for (let i = 0; i < all.length; i += 2) sum += (all[i] << 8) | (i + 1 < all.length ? all[i + 1] : 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

export function parseIpv4(text: string): Uint8Array {
  const bytes = parseIpAddress(text);
  if (bytes?.length !== 4) throw new Error(`bad IPv4 address ${text}`);
  return bytes;
}

export function parseIpv6(text: string): Uint8Array {
  const bytes = parseIpAddress(text);
  if (bytes?.length !== 16) throw new Error(`bad IPv6 address ${text}`);
  return bytes;
}

export function tcp(o: TcpOptions): Layer {
  const options = padded(o.options);
  const payload = bytesOf(o.payload);
  const header = new Uint8Array(20 + options.length);
  put16(header, 0, o.srcPort);
  put16(header, 2, o.dstPort);
  put32(header, 4, o.seq ?? 1000);
  put32(header, 8, o.ack ?? 0);
  header[12] = (o.dataOffset ?? header.length / 4) << 4;
  header[13] = o.flags ?? 0x10;
  put16(header, 14, o.window ?? 65535);
  put16(header, 18, o.urgentPointer ?? 0);
  header.set(options, 20);
  return { type: 6, bytes: concat(header, payload) };
}

export function udp(o: UdpOptions): Layer {
  const payload = bytesOf(o.payload);
  const header = new Uint8Array(8);
  put16(header, 0, o.srcPort);
  put16(header, 2, o.dstPort);
  put16(header, 4, o.length ?? 8 + payload.length);
  return { type: 17, bytes: concat(header, payload) };
}

/** Any other IP payload (ICMP, GRE, ESP, …) as opaque bytes. */
export function ipPayload(protocol: number, payload: Uint8Array | number): Layer {
  return { type: protocol, bytes: bytesOf(payload) };
}

/** Copies a TCP/UDP layer with its checksum filled for the given pseudo-header addresses. */
function withChecksum(inner: Layer, src: Uint8Array, dst: Uint8Array): Uint8Array {
  const bytes = inner.bytes.slice();
  const at = inner.type === 6 ? 16 : inner.type === 17 ? 6 : -1;
  if (at < 0 || bytes.length < at + 2) return bytes;
  const pseudo = new Uint8Array(src.length === 4 ? 12 : 40);
  pseudo.set(src, 0);
  pseudo.set(dst, src.length);
  if (src.length === 4) {
    pseudo[9] = inner.type;
    put16(pseudo, 10, bytes.length);
  } else {
    put32(pseudo, 32, bytes.length);
    pseudo[39] = inner.type;
  }
  put16(bytes, at, 0);
  const sum = checksum([pseudo, bytes]);
  put16(bytes, at, inner.type === 17 && sum === 0 ? 0xffff : sum);
  return bytes;
}

export function ipv4(o: Ipv4Options, inner: Layer): Layer {
  const src = parseIpv4(o.src);
  const dst = parseIpv4(o.dst);
  // A fragment's transport checksum covers the whole datagram: `fragments()` computes it before splitting.
  const body = o.moreFragments || o.fragmentOffset ? inner.bytes : withChecksum(inner, src, dst);
  const options = padded(o.options);
  const header = new Uint8Array(20 + options.length);
  header[0] = ((o.version ?? 4) << 4) | (o.headerWords ?? header.length / 4);
  header[1] = o.tos ?? 0;
  put16(header, 2, o.totalLength ?? header.length + body.length);
  put16(header, 4, o.id ?? 1);
  const flags = (o.dontFragment ? 0x4000 : 0) | (o.moreFragments ? 0x2000 : 0);
  put16(header, 6, flags | ((o.fragmentOffset ?? 0) >> 3));
  header[8] = o.ttl ?? 64;
  header[9] = inner.type;
  header.set(src, 12);
  header.set(dst, 16);
  header.set(options, 20);
  put16(header, 10, checksum([header]));
  return { type: 0x0800, bytes: concat(header, body) };
}

export function ipv6(o: Ipv6Options, inner: Layer): Layer {
  const src = parseIpv6(o.src);
  const dst = parseIpv6(o.dst);
  const body = o.fragment ? inner.bytes : withChecksum(inner, src, dst);
  const chain: { type: number; bytes: Uint8Array }[] = [];
  for (const ext of o.extensionHeaders ?? []) {
    const length = ext.length ?? (ext.type === 51 ? 16 : 8);
    const bytes = new Uint8Array(length);
    bytes[1] = ext.type === 51 ? length / 4 - 2 : length / 8 - 1;
    if (ext.type !== 51 && ext.type !== 43 && length > 2) bytes[2] = 1; // a PadN option filling the header
    if (ext.type !== 51 && ext.type !== 43 && length > 3) bytes[3] = length - 4;
    chain.push({ type: ext.type, bytes });
  }
  if (o.fragment) {
    const bytes = new Uint8Array(8);
    put16(bytes, 2, (o.fragment.offset & 0xfff8) | (o.fragment.more ? 1 : 0));
    put32(bytes, 4, o.fragment.id);
    chain.push({ type: 44, bytes });
  }
  for (let i = 0; i < chain.length; i++) chain[i].bytes[0] = i + 1 < chain.length ? chain[i + 1].type : inner.type;
  const extensions = concat(...chain.map((c) => c.bytes));
  const header = new Uint8Array(40);
  put32(header, 0, (((o.version ?? 6) << 28) | ((o.trafficClass ?? 0) << 20) | (o.flowLabel ?? 0)) >>> 0);
  put16(header, 4, o.payloadLength ?? extensions.length + body.length);
  header[6] = chain.length > 0 ? chain[0].type : inner.type;
  header[7] = o.hopLimit ?? 64;
  header.set(src, 8);
  header.set(dst, 24);
  return { type: 0x86dd, bytes: concat(header, extensions, body) };
}

/**
 * Splits a transport layer into IP fragments carrying at most `fragmentSize` bytes (rounded down to 8) each,
 * built with `ipv4` or `ipv6` and the given options; the transport checksum covers the whole datagram.
 */
export function fragments(ip: Ipv4Options | Ipv6Options, inner: Layer, fragmentSize: number, id = 7): Layer[] {
  const isV6 = ip.src.includes(":");
  const src = isV6 ? parseIpv6(ip.src) : parseIpv4(ip.src);
  const dst = isV6 ? parseIpv6(ip.dst) : parseIpv4(ip.dst);
  const whole = withChecksum(inner, src, dst);
  const size = fragmentSize & ~7;
  if (size < 8) throw new Error(`fragments: a fragment carries at least 8 bytes, not ${fragmentSize}`);
  const out: Layer[] = [];
  for (let offset = 0; offset < whole.length; offset += size) {
    const piece = { type: inner.type, bytes: whole.subarray(offset, offset + size) };
    const more = offset + size < whole.length;
    if (isV6) {
      out.push(ipv6({ ...(ip as Ipv6Options), fragment: { id, offset, more } }, piece));
    } else {
      out.push(ipv4({ ...(ip as Ipv4Options), id, fragmentOffset: offset, moreFragments: more }, piece));
    }
  }
  return out;
}
