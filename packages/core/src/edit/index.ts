// Public surface of core/edit: rewriting packets in place (addresses, with their checksums kept consistent).
export { AddressMap, type AddressMapping, parseAddressMapping } from "./address-map.js";
export { AddressRemapper, type ChecksumMode, type RemapInput, type RemapStats } from "./address-remapper.js";
export { addReplacement, adjustChecksum, checksumOf, foldSum, sumWords } from "./checksum.js";
export { EthernetFramer, OPAQUE_ETHERTYPE } from "./ethernet-framer.js";
