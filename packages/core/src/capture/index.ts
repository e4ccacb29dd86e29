// Public surface of core/capture: readers (one PacketSource interface), format sniffing, pcap/pcapng writers.
export { ByteBatch, type ByteSink, DEFAULT_BATCH_BYTES } from "./byte-batch.js";
export { LENIENT_SNAPLEN, MAX_PACKET_BYTES } from "./damage.js";
export { ErfReader } from "./erf-reader.js";
export { linkTypeName } from "./link-type-names.js";
export type { CapturedPacket } from "./packet.js";
export { PacketRecord } from "./packet-record.js";
export type {
  CaptureByteOrder,
  CaptureDamage,
  CaptureFormat,
  CaptureInfo,
  CaptureInterface,
  CaptureSection,
  PacketSource,
} from "./packet-source.js";
export { PcapReader } from "./pcap-reader.js";
export { PcapWriter, type PcapWriterOptions } from "./pcap-writer.js";
export { PcapngReader } from "./pcapng-reader.js";
export {
  type PcapngInterfaceOptions,
  PcapngWriter,
  type PcapngWriterOptions,
  pcapngInterfacesOf,
} from "./pcapng-writer.js";
export { createPacketSource, openPacketSource, SNIFF_BYTES, sniffCaptureFormat } from "./sniff.js";
