// Encodes unified2 records (big-endian, as Snort wrote them) so tools that still read unified2 can use Tracemill's alerts.
import {
  type Unified2Event,
  type Unified2ExtraData,
  type Unified2Packet,
  type Unified2Record,
  unified2EventLength,
  unified2ExtraDataEventType,
  unified2ExtraDataHeaderLength,
  unified2PacketHeaderLength,
} from "./unified2-records.js";

/** One record with its 8-byte header, ready to append to a .u2 file. */
export function encodeUnified2Record(record: Unified2Record): Uint8Array {
  switch (record.kind) {
    case "event":
      return encodeEvent(record);
    case "packet":
      return encodePacket(record);
    case "extra-data":
      return encodeExtraData(record);
  }
}

function withHeader(type: number, bodyLength: number): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(8 + bodyLength);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, type);
  view.setUint32(4, bodyLength);
  return { bytes, view };
}

function encodeEvent(event: Unified2Event): Uint8Array {
  const addressLength = event.type === 72 || event.type === 105 ? 16 : 4;
  if (event.src.length !== addressLength || event.dst.length !== addressLength) {
    throw new RangeError(`unified2 event type ${event.type} needs ${addressLength}-byte addresses`);
  }
  const { bytes, view } = withHeader(event.type, unified2EventLength[event.type]);
  const words = [
    event.sensorId,
    event.eventId,
    event.eventSecond,
    event.eventMicrosecond,
    event.signatureId,
    event.generatorId,
    event.signatureRevision,
    event.classificationId,
    event.priority,
  ];
  words.forEach((word, i) => {
    view.setUint32(8 + i * 4, word);
  });
  bytes.set(event.src, 44);
  bytes.set(event.dst, 44 + addressLength);
  const at = 44 + 2 * addressLength;
  view.setUint16(at, event.srcPort);
  view.setUint16(at + 2, event.dstPort);
  bytes[at + 4] = event.protocol;
  bytes[at + 5] = event.impactFlag;
  bytes[at + 6] = event.impact;
  bytes[at + 7] = event.blocked;
  if (event.type === 104 || event.type === 105) {
    view.setUint32(at + 8, event.mplsLabel);
    view.setUint16(at + 12, event.vlanId);
  }
  return bytes;
}

function encodePacket(packet: Unified2Packet): Uint8Array {
  const { bytes, view } = withHeader(2, unified2PacketHeaderLength + packet.data.length);
  [
    packet.sensorId,
    packet.eventId,
    packet.eventSecond,
    packet.packetSecond,
    packet.packetMicrosecond,
    packet.linkType,
    packet.data.length,
  ].forEach((word, i) => {
    view.setUint32(8 + i * 4, word);
  });
  bytes.set(packet.data, 8 + unified2PacketHeaderLength);
  return bytes;
}

function encodeExtraData(extra: Unified2ExtraData): Uint8Array {
  const bodyLength = unified2ExtraDataHeaderLength + extra.data.length;
  const { bytes, view } = withHeader(110, bodyLength);
  [
    unified2ExtraDataEventType,
    bodyLength,
    extra.sensorId,
    extra.eventId,
    extra.eventSecond,
    extra.extraType,
    extra.dataType,
    extra.data.length + 8,
  ].forEach((word, i) => {
    view.setUint32(8 + i * 4, word);
  });
  bytes.set(extra.data, 8 + unified2ExtraDataHeaderLength);
  return bytes;
}
