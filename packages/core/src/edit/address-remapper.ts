// Rewrites IPv4/IPv6 source and destination addresses of a decoded packet in place, keeping every checksum
// that covers them (IPv4 header; TCP, UDP and ICMPv6 through their pseudo-header) consistent.
import type { DecodedPacket } from "../decode/decoded-packet.js";
import type { AddressMap } from "./address-map.js";
import { addReplacement, adjustChecksum, checksumOf, sumWords } from "./checksum.js";

/**
 * How transport checksums are fixed after a rewrite.
 * - "adjust" (default): incremental update (RFC 1624) by the change of the addresses only. Exact whatever the
 *   packet's captured length, for fragments too, and a checksum that was wrong before stays wrong by the same amount.
 * - "recompute": computed afresh over the whole segment when every byte of it was captured and it is not a
 *   fragment (so offloaded or bad checksums become valid); otherwise adjusted as above.
 */
export type ChecksumMode = "adjust" | "recompute";

/** The decoder's fields the rewrite needs. */
export type RemapInput = Pick<
  DecodedPacket,
  "ipVersion" | "ipOffset" | "ipLength" | "ipHeaderLength" | "protocol" | "transportOffset" | "isFragment"
>;

export interface RemapStats {
  /** Packets with at least one address rewritten. */
  packets: number;
  /** Addresses rewritten (a packet counts up to two). */
  addresses: number;
  /** Transport checksums updated incrementally. */
  checksumsAdjusted: number;
  /** Transport checksums computed afresh ("recompute" mode). */
  checksumsRecomputed: number;
  /** Rewritten packets whose transport checksum field lies beyond the captured bytes (nothing to fix). */
  checksumsNotCaptured: number;
  /** IP packets cut before the end of their addresses: left untouched. */
  addressesNotCaptured: number;
}

const TCP = 6;
const UDP = 17;
const ICMPV6 = 58;

export class AddressRemapper {
  readonly stats: RemapStats = {
    packets: 0,
    addresses: 0,
    checksumsAdjusted: 0,
    checksumsRecomputed: 0,
    checksumsNotCaptured: 0,
    addressesNotCaptured: 0,
  };

  constructor(
    private readonly map: AddressMap,
    private readonly mode: ChecksumMode = "adjust",
  ) {}

  /** Rewrites `data` (the packet's bytes) in place; returns true when an address changed. */
  remap(data: Uint8Array, ip: RemapInput): boolean {
    if (ip.ipVersion === 0 || ip.ipOffset < 0 || this.map.size === 0) return false;
    const v4 = ip.ipVersion === 4;
    const length = v4 ? 4 : 16;
    const srcOffset = ip.ipOffset + (v4 ? 12 : 8);
    const dstOffset = srcOffset + length;
    if (dstOffset + length > data.length) {
      this.stats.addressesNotCaptured++;
      return false;
    }
    const newSrc = v4 ? this.map.lookupV4(data, srcOffset) : this.map.lookupV6(data, srcOffset);
    const newDst = v4 ? this.map.lookupV4(data, dstOffset) : this.map.lookupV6(data, dstOffset);
    if (!newSrc && !newDst) return false;

    let delta = 0;
    if (newSrc) delta = addReplacement(delta, data, srcOffset, newSrc);
    if (newDst) delta = addReplacement(delta, data, dstOffset, newDst);
    const checksumAt = this.transportChecksumOffset(data, ip);
    const transportBefore = checksumAt >= 0 && checksumAt + 2 <= data.length ? readWord(data, checksumAt) : -1;
    if (newSrc) data.set(newSrc, srcOffset);
    if (newDst) data.set(newDst, dstOffset);
    this.stats.packets++;
    this.stats.addresses += (newSrc ? 1 : 0) + (newDst ? 1 : 0);

    if (v4) this.fixIpv4HeaderChecksum(data, ip, delta);
    if (checksumAt < 0) return true;
    if (transportBefore < 0) {
      this.stats.checksumsNotCaptured++;
      return true;
    }
    // UDP over IPv4 may carry no checksum at all (zero): there is nothing to keep consistent.
    if (v4 && ip.protocol === UDP && transportBefore === 0) return true;
    let checksum: number;
    const segmentEnd = ip.ipOffset + ip.ipLength;
    if (this.mode === "recompute" && segmentEnd <= data.length && !isFragment(data, ip)) {
      checksum = transportChecksum(data, ip, srcOffset, length, checksumAt, segmentEnd);
      this.stats.checksumsRecomputed++;
    } else {
      checksum = adjustChecksum(transportBefore, delta);
      this.stats.checksumsAdjusted++;
    }
    // In UDP a computed zero is sent as all ones (RFC 768), zero meaning "no checksum".
    if (ip.protocol === UDP && checksum === 0) checksum = 0xffff;
    writeWord(data, checksumAt, checksum);
    return true;
  }

  private fixIpv4HeaderChecksum(data: Uint8Array, ip: RemapInput, delta: number): void {
    const at = ip.ipOffset + 10;
    const headerEnd = ip.ipOffset + ip.ipHeaderLength;
    if (this.mode === "recompute" && headerEnd <= data.length) {
      writeWord(data, at, 0);
      writeWord(data, at, checksumOf(sumWords(data, ip.ipOffset, headerEnd)));
    } else {
      writeWord(data, at, adjustChecksum(readWord(data, at), delta));
    }
  }

  /** Where the transport checksum sits, or -1 when the packet has none covering the addresses. */
  private transportChecksumOffset(data: Uint8Array, ip: RemapInput): number {
    if (ip.transportOffset < 0) return -1;
    // Later IPv4 fragments carry no transport header; the decoder already leaves transportOffset at -1 for
    // IPv6 ones, and IPv4's fragment offset is checked here too so a stale offset can never be trusted.
    if (ip.ipVersion === 4 && ((data[ip.ipOffset + 6] & 0x1f) | data[ip.ipOffset + 7]) !== 0) return -1;
    if (ip.protocol === TCP) return ip.transportOffset + 16;
    if (ip.protocol === UDP) return ip.transportOffset + 6;
    if (ip.protocol === ICMPV6 && ip.ipVersion === 6) return ip.transportOffset + 2;
    return -1;
  }
}

/** A fragment's segment continues in other packets, so its checksum can only be adjusted. */
function isFragment(data: Uint8Array, ip: RemapInput): boolean {
  return ip.isFragment || (ip.ipVersion === 4 && (data[ip.ipOffset + 6] & 0x3f) !== 0);
}

/** The transport checksum over the pseudo-header (addresses, protocol, length) and the whole segment. */
function transportChecksum(
  data: Uint8Array,
  ip: RemapInput,
  srcOffset: number,
  addressLength: number,
  checksumAt: number,
  segmentEnd: number,
): number {
  const segmentLength = segmentEnd - ip.transportOffset;
  let sum = sumWords(data, srcOffset, srcOffset + 2 * addressLength);
  sum += ip.protocol + Math.floor(segmentLength / 0x10000) + (segmentLength & 0xffff);
  sum = sumWords(data, ip.transportOffset, checksumAt, sum);
  sum = sumWords(data, checksumAt + 2, segmentEnd, sum);
  return checksumOf(sum);
}

function readWord(data: Uint8Array, offset: number): number {
  return (data[offset] << 8) | data[offset + 1];
}

function writeWord(data: Uint8Array, offset: number, value: number): void {
  data[offset] = value >> 8;
  data[offset + 1] = value & 0xff;
}
