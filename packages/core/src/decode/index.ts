// Public surface of core/decode: link layers, IPv4/IPv6, TCP/UDP, decoded in place; fragments attributed to their ports.
export { createDecodedPacket, type DecodedPacket, DecodeKind, MAX_VLAN_IDS, TcpFlag } from "./decoded-packet.js";
export {
  type FragmentHandler,
  FragmentTracker,
  type FragmentTrackerOptions,
  type FragmentTrackerStats,
  type UnattributedReason,
} from "./fragment-tracker.js";
export { AddressFamily, EtherType, LinkType, PppProtocol } from "./link-type.js";
export { PacketDecoder } from "./packet-decoder.js";
