// Numbers the decoder dispatches on: LINKTYPE_* values (tcpdump.org numbering), EtherTypes and PPP protocols.

/** Link types the decoder understands (LINKTYPE_* numbering, as in pcap and pcapng headers). */
export const LinkType = {
  /** BSD loopback: a 4-byte address family in the capturing host's byte order. */
  NULL: 0,
  ETHERNET: 1,
  /** PPP, with or without the 0xff 0x03 HDLC address/control bytes. */
  PPP: 9,
  /** Raw IP (the DLT_RAW value of most systems, and of OpenBSD); the version nibble says 4 or 6. */
  RAW_12: 12,
  RAW_14: 14,
  /** PPP in HDLC-like framing, or Cisco PPP with HDLC framing. */
  PPP_HDLC: 50,
  RAW: 101,
  /** Cisco HDLC: address, control, then an EtherType. */
  C_HDLC: 104,
  /** OpenBSD loopback: a 4-byte address family in network byte order. */
  LOOP: 108,
  LINUX_SLL: 113,
  IPV4: 228,
  IPV6: 229,
  LINUX_SLL2: 276,
} as const;

export const EtherType = {
  IPV4: 0x0800,
  IPV6: 0x86dd,
  VLAN: 0x8100,
  QINQ: 0x88a8,
  QINQ_OLD: 0x9100,
  MPLS_UNICAST: 0x8847,
  MPLS_MULTICAST: 0x8848,
  PPPOE_SESSION: 0x8864,
} as const;

export const PppProtocol = {
  IPV4: 0x0021,
  IPV6: 0x0057,
} as const;

/** BSD address-family values meaning IPv4 / IPv6 in NULL and LOOP headers (IPv6 differs between BSDs). */
export const AddressFamily = {
  INET: 2,
  /** NetBSD, OpenBSD, BSD/OS. */
  INET6_BSD: 24,
  /** FreeBSD, DragonFly BSD. */
  INET6_FREEBSD: 28,
  /** macOS, iOS. */
  INET6_DARWIN: 30,
} as const;
