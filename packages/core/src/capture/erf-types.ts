// ERF record types: which are defined, which carry packets (and as what LINKTYPE). Shared by the ERF reader and the
// file-kind sniffer, which has no magic number to go by and judges ERF by these types.

/** Fixed ERF record header; Ethernet types add 2 pad bytes after it. */
export const ERF_HEADER = 16;
/** Padding records. */
export const ERF_TYPE_PAD = 48;
/** Provenance metadata (ERF_TYPE_META): what current Endace software writes first, and again while capturing. */
export const ERF_TYPE_META = 27;
/** ERF types 1..29 are defined; 48 is padding. Anything else means the bytes are not ERF records. */
const MAX_DEFINED_TYPE = 29;
export const LINKTYPE_ETHERNET = 1;
const LINKTYPE_IPV4 = 228;
const LINKTYPE_IPV6 = 229;

/** Whether a record type (the low 7 bits of the type byte) is one ERF defines. */
export function isDefinedErfType(type: number): boolean {
  return type !== 0 && (type <= MAX_DEFINED_TYPE || type === ERF_TYPE_PAD);
}

/** LINKTYPE of each ERF record type delivered as packets (others are skipped); Ethernet types carry 2 pad bytes. */
export function erfLinkType(type: number): number {
  switch (type) {
    case 2: // ETH
    case 11: // COLOR_ETH
    case 16: // DSM_COLOR_ETH
    case 20: // COLOR_HASH_ETH
      return LINKTYPE_ETHERNET;
    case 22:
      return LINKTYPE_IPV4;
    case 23:
      return LINKTYPE_IPV6;
    default:
      return -1;
  }
}
