// Synthetic packets and files for tests (excluded from the core build): IP/TCP/UDP layers, link-layer frames, pcap
// files, random CSVs.
export { addressText } from "./address-text.js";
export {
  concat,
  fragments,
  type Ipv4Options,
  type Ipv6ExtensionHeader,
  type Ipv6Options,
  ipPayload,
  ipv4,
  ipv6,
  type Layer,
  parseIpv4,
  parseIpv6,
  type TcpOptions,
  tcp,
  type UdpOptions,
  udp,
} from "./ip-builder.js";
export {
  capturedPacket,
  ciscoHdlc,
  type EthernetOptions,
  ethernet,
  loopback,
  type PacketOptions,
  pcapFile,
  ppp,
  sll,
  sll2,
  type VlanTag,
} from "./link-builder.js";
export { type RandomCsv, randomCsv } from "./random-csv.js";
export { seededRandom } from "./seeded-random.js";
