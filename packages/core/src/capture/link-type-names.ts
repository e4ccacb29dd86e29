// Readable names of the LINKTYPE_* values captures commonly carry, for `tracemill info` and messages.

const NAMES: Record<number, string> = {
  0: "NULL (BSD loopback)",
  1: "Ethernet",
  9: "PPP",
  12: "Raw IP",
  14: "Raw IP",
  50: "PPP in HDLC framing",
  101: "Raw IP",
  104: "Cisco HDLC",
  105: "IEEE 802.11",
  108: "OpenBSD loopback",
  113: "Linux cooked (SLL)",
  127: "IEEE 802.11 radiotap",
  228: "Raw IPv4",
  229: "Raw IPv6",
  276: "Linux cooked v2 (SLL2)",
};

/** "Ethernet" for 1, "link type 147" for values without a name here. */
export function linkTypeName(linkType: number): string {
  return NAMES[linkType] ?? `link type ${linkType}`;
}
