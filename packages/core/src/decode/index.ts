// Public surface of core/decode: link layers, IPv4/IPv6, TCP/UDP, decoded in place.
export { type DecodedPacket, DecodeKind, TcpFlag } from "./decoded-packet.js";
