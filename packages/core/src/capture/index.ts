// Public surface of core/capture: readers (one PacketSource interface), format sniffing, pcap/pcapng writers.
//
//   const source = openPacketSource(firstChunk);      // sniffs pcap / pcapng / ERF from the magic, pushes the chunk
//   for (let p = source.next(); p !== null; p = source.next()) use(p);   // sync, one reused packet (PacketRecord)
//   source.push(nextChunk); …; source.end();           // then next() until null; damage throws a TracemillError
//   const writer = new PcapngWriter((chunk) => save(chunk), { interfaces: pcapngInterfacesOf(source.info) });
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
  CaptureWarning,
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
