// Frames a packet of any link type as Ethernet, for a reader that takes one link type per file (libpcap reading
// a pcapng whose interfaces differ) or does not decode the packet's own (Suricata and Linux cooked v2).

import type { CapturedPacket } from "../capture/packet.js";
import { PacketRecord } from "../capture/packet-record.js";
import { type DecodedPacket, MAX_VLAN_IDS } from "../decode/decoded-packet.js";
import { EtherType, LinkType } from "../decode/link-type.js";

const ETHERNET_HEADER = 14;
/**
 * IEEE 802's local experimental EtherType 1: the EtherType of a frame that carries a packet with no IP layer, so that
 * the record is still there (packet numbers keep counting the same packets) and no reader decodes it as anything.
 */
export const OPAQUE_ETHERTYPE = 0x88b5;

/**
 * One reused output record. An Ethernet frame passes unchanged. A packet whose IP layer was found behind another
 * link layer gets a 14-byte header of zero addresses and its IP version's EtherType in place of that layer, with an
 * 802.1Q tag for each VLAN tag the packet carried (Suricata keys flows by their ids), so its IP bytes (and everything
 * a rule looks at above them) are the same. Any other packet, and one with more tags than Suricata decodes, is kept
 * whole as the payload of OPAQUE_ETHERTYPE. Times, position and interface stay the packet's; both lengths change by
 * the same amount.
 */
export class EthernetFramer {
  private buffer = new Uint8Array(1 << 16);
  private readonly record = new PacketRecord();

  /** The packet as Ethernet: `packet` itself when it is one, else the reused record (valid until the next call). */
  frame(packet: CapturedPacket, decoded: DecodedPacket): CapturedPacket {
    if (packet.linkType === LinkType.ETHERNET) return packet;
    const data = packet.data;
    // The version nibble, not the decoded version: a header cut short still has its first byte.
    const ip = decoded.ipOffset >= 0 && decoded.ipOffset < data.length && decoded.vlanCount <= MAX_VLAN_IDS;
    const from = ip ? decoded.ipOffset : 0;
    const tags = ip ? decoded.vlanCount : 0;
    const headerLength = ETHERNET_HEADER + 4 * tags;
    const length = headerLength + data.length - from;
    if (length > this.buffer.length) this.buffer = new Uint8Array(Math.max(length, 2 * this.buffer.length));
    const out = this.buffer;
    out.fill(0, 0, 12);
    const type = !ip ? OPAQUE_ETHERTYPE : data[from] >>> 4 === 6 ? EtherType.IPV6 : EtherType.IPV4;
    for (let t = 0; t < tags; t++) {
      out[12 + 4 * t] = EtherType.VLAN >>> 8;
      out[13 + 4 * t] = EtherType.VLAN & 255;
      out[14 + 4 * t] = decoded.vlanIds[t] >>> 8;
      out[15 + 4 * t] = decoded.vlanIds[t] & 255;
    }
    out[12 + 4 * tags] = type >>> 8;
    out[13 + 4 * tags] = type & 255;
    out.set(data.subarray(from), headerLength);
    const record = this.record;
    record.setBytes(out, 0, length);
    record.originalLength = Math.max(length, packet.originalLength - from + headerLength);
    record.tsSec = packet.tsSec;
    record.tsNsec = packet.tsNsec;
    record.linkType = LinkType.ETHERNET;
    record.interfaceIndex = packet.interfaceIndex;
    record.fileOffset = packet.fileOffset;
    record.index = packet.index;
    return record;
  }
}
