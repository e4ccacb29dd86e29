// Writes an EVE alert's unified2 records straight into a byte batch, without record objects: the same bytes as
// encodeUnified2Record over unified2RecordsFromAlert (event 104/105, then the packet when EVE carried it).
import type { ByteBatch } from "../capture/byte-batch.js";
import type { EveAlertFields } from "./eve-alert-fields.js";
import { unified2EventLength, unified2PacketHeaderLength } from "./unified2-records.js";

export function writeUnified2Alert(batch: ByteBatch, alert: EveAlertFields, eventId: number, sensorId = 0): void {
  const addressLength = alert.addressLength;
  const type = addressLength === 16 ? 105 : 104;
  const bodyLength = unified2EventLength[type];
  const micros = Math.floor(alert.tsNsec / 1000);
  const rule = alert.rule;
  let at = batch.reserve(8 + bodyLength);
  let v = batch.view;
  let buf = batch.buf;
  v.setUint32(at, type);
  v.setUint32(at + 4, bodyLength);
  v.setUint32(at + 8, sensorId);
  v.setUint32(at + 12, eventId);
  v.setUint32(at + 16, alert.tsSec);
  v.setUint32(at + 20, micros);
  v.setUint32(at + 24, rule.sid);
  v.setUint32(at + 28, rule.gid);
  v.setUint32(at + 32, rule.rev);
  v.setUint32(at + 36, rule.classId);
  v.setUint32(at + 40, rule.priority);
  // Byte loops, not subarray + set: a view per address per alert is garbage by the hundred thousand.
  const src = alert.src;
  const dst = alert.dst;
  for (let i = 0; i < addressLength; i++) {
    buf[at + 44 + i] = src[i];
    buf[at + 44 + addressLength + i] = dst[i];
  }
  const p = at + 44 + 2 * addressLength;
  v.setUint16(p, alert.srcPort);
  v.setUint16(p + 2, alert.dstPort);
  buf[p + 4] = alert.protocol;
  buf[p + 5] = 0;
  buf[p + 6] = 0;
  buf[p + 7] = rule.blocked ? 2 : 0;
  // MPLS label, VLAN id (vlanIdOf), padding.
  v.setUint32(p + 8, 0);
  v.setUint16(p + 12, alert.vlanCount === 0 ? 0 : alert.vlanIds[alert.vlanCount - 1] & 0xfff);
  v.setUint16(p + 14, 0);
  const data = alert.packet;
  if (data.length === 0) return;
  at = batch.reserve(8 + unified2PacketHeaderLength + data.length);
  v = batch.view;
  buf = batch.buf;
  v.setUint32(at, 2);
  v.setUint32(at + 4, unified2PacketHeaderLength + data.length);
  v.setUint32(at + 8, sensorId);
  v.setUint32(at + 12, eventId);
  v.setUint32(at + 16, alert.tsSec);
  v.setUint32(at + 20, alert.tsSec);
  v.setUint32(at + 24, micros);
  v.setUint32(at + 28, alert.linkType);
  v.setUint32(at + 32, data.length);
  buf.set(data, at + 8 + unified2PacketHeaderLength);
}
