// The decoder's result: one reused record per decoder, filled in place for every packet (no allocation per packet).

/** Outcome of decoding one packet. */
export const DecodeKind = {
  /** A TCP segment (or a fragment of one, attributed to its ports). */
  Tcp: 1,
  /** A UDP datagram (or a fragment of one, attributed to its ports). */
  Udp: 2,
  /** IPv4/IPv6 with another transport (ICMP, GRE, ESP, …): `protocol` says which. */
  OtherIp: 3,
  /** No IP layer (ARP, LLDP, STP, …) or an unsupported link type. */
  NonIp: 4,
  /** A fragment whose transport header has not been seen yet (ports unknown for now). */
  FragmentPending: 5,
  /**
   * The capture (snaplen) cut the packet before its ports, or its headers are inconsistent: exactly one of
   * `truncated` / `malformed` says which. Fields read before the problem (ipVersion, addresses, protocol, lengths)
   * stay filled.
   */
  Undecodable: 6,
} as const;
export type DecodeKind = (typeof DecodeKind)[keyof typeof DecodeKind];

/** TCP flag bits as they appear in the TCP header's flags byte. */
export const TcpFlag = {
  FIN: 0x01,
  SYN: 0x02,
  RST: 0x04,
  PSH: 0x08,
  ACK: 0x10,
  URG: 0x20,
  ECE: 0x40,
  CWR: 0x80,
} as const;

export interface DecodedPacket {
  kind: DecodeKind;
  /** 4 or 6; 0 when there is no IP layer. */
  ipVersion: 0 | 4 | 6;
  /**
   * Source address: the first 4 bytes for IPv4, 16 for IPv6. Reused buffer, refilled only when the IP header is
   * complete: valid whenever `ipLength` > 0 (an undecodable packet cut inside its IP header keeps stale bytes).
   */
  src: Uint8Array;
  /** Destination address, as `src`. */
  dst: Uint8Array;
  /** Transport protocol number (after IPv6 extension headers); -1 without IP. */
  protocol: number;
  /** Ports when kind is Tcp or Udp (later fragments: once a FragmentTracker knows them); 0 otherwise. */
  srcPort: number;
  dstPort: number;
  /**
   * IP packet length from the IP header: IPv4 total length; IPv6 40 + payload length. A length field of 0
   * (IPv4 total length: segmentation offload; IPv6 payload length with a next header: jumbogram or offload)
   * is replaced by the packet's length on the wire (frame original length minus the link-layer header).
   */
  ipLength: number;
  /** IP header length including IPv4 options or IPv6 extension headers. */
  ipHeaderLength: number;
  /**
   * TCP header length (data offset × 4) or 8 for UDP; 0 for fragments that do not carry it, and for a TCP header cut
   * before its data-offset byte (byte 12).
   */
  transportHeaderLength: number;
  /** TCP flags byte (see TcpFlag); 0 for UDP, and for a TCP header cut before its flags byte (byte 13). */
  tcpFlags: number;
  /** TCP window field as sent (not scaled); 0 for UDP, and for a TCP header cut before its window bytes (14–15). */
  tcpWindow: number;
  /** ipLength − ipHeaderLength − transportHeaderLength: payload bytes per the IP header, not the captured bytes. */
  payloadLength: number;
  /**
   * VLAN tags (802.1Q, 802.1ad, 0x9100) peeled before the IP layer, outer first; may exceed MAX_VLAN_IDS (Suricata
   * then decodes no further, so such a packet is in none of its flows).
   */
  vlanCount: number;
  /**
   * The 12-bit ids of the first MAX_VLAN_IDS tags, outer first: what Suricata keys its flows by besides the 5-tuple.
   * Reused array; only the first `vlanCount` entries are this packet's.
   */
  readonly vlanIds: Uint16Array;
  /** Offset of the IP header in the packet's data; -1 without IP. */
  ipOffset: number;
  /** Offset of the transport header in the packet's data; -1 when absent. */
  transportOffset: number;
  /** True for an IPv4/IPv6 fragment (first or later). An IPv6 atomic fragment (offset 0, no more fragments) is not one. */
  isFragment: boolean;
  /** Fragments only: the IPv4 identification (16 bits) or the IPv6 fragment header's identification (32 bits); 0 otherwise. */
  fragmentId: number;
  /** Fragments only: this fragment's offset in its datagram, in bytes (0 for the first fragment). */
  fragmentOffset: number;
  /** Fragments only: the more-fragments flag (false on the last fragment). */
  moreFragments: boolean;
  /**
   * The capture cut the packet before what a session needs: inside the link-layer header, the IP header (IPv4
   * options, IPv6 extension headers, AH included) or the first 4 bytes of the TCP/UDP header (the ports); kind is
   * Undecodable. This is the one definition of a truncated packet in every count (run summaries, `tracemill info`).
   * A packet cut later (in the rest of the TCP header, or in the payload) is not truncated: it keeps its kind, ports
   * and exact lengths from the IP header; its capture record says it is shorter than on the wire.
   */
  truncated: boolean;
  /**
   * A header is inconsistent (bad IP version, IHL < 5, total length < header length, an extension header or TCP
   * header beyond the IP length, TCP data offset < 5, …): kind is Undecodable. Never set with `truncated`.
   */
  malformed: boolean;
}

/** How many VLAN ids a packet keeps: as many as Suricata 7 decodes and keys its flows by (VLAN_MAX_LAYERS). */
export const MAX_VLAN_IDS = 3;

/** A blank record: every decoder owns one and refills it for each packet. */
export function createDecodedPacket(): DecodedPacket {
  return {
    kind: DecodeKind.NonIp,
    ipVersion: 0,
    src: new Uint8Array(16),
    dst: new Uint8Array(16),
    protocol: -1,
    srcPort: 0,
    dstPort: 0,
    ipLength: 0,
    ipHeaderLength: 0,
    transportHeaderLength: 0,
    tcpFlags: 0,
    tcpWindow: 0,
    payloadLength: 0,
    vlanCount: 0,
    vlanIds: new Uint16Array(MAX_VLAN_IDS),
    ipOffset: -1,
    transportOffset: -1,
    isFragment: false,
    fragmentId: 0,
    fragmentOffset: 0,
    moreFragments: false,
    truncated: false,
    malformed: false,
  };
}
