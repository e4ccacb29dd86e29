// Turns normalized alerts back into unified2 records: an event (104 for IPv4, 105 for IPv6) plus its packet if known.

import { parseIpAddress } from "../net/ip-address.js";
import type { Alert } from "./alert.js";
import type { Unified2Event, Unified2Packet, Unified2Record } from "./unified2-records.js";

/**
 * The records of one alert. `eventId` numbers events within the file (unified2 links packets to events by it).
 * Snort's blocked field: 2 means the packet was dropped.
 */
export function unified2RecordsFromAlert(alert: Alert, eventId: number, sensorId = 0): Unified2Record[] {
  const src = parseIpAddress(alert.src);
  const dst = parseIpAddress(alert.dst);
  if (!src || !dst || src.length !== dst.length) {
    throw new RangeError(`alert sid ${alert.sid} has addresses unified2 cannot hold: ${alert.src} → ${alert.dst}`);
  }
  const eventMicrosecond = Math.floor(alert.tsNsec / 1000);
  const event: Unified2Event = {
    kind: "event",
    type: src.length === 16 ? 105 : 104,
    sensorId,
    eventId,
    eventSecond: alert.tsSec,
    eventMicrosecond,
    signatureId: alert.sid,
    generatorId: alert.gid,
    signatureRevision: alert.rev,
    classificationId: alert.classId,
    priority: alert.priority,
    src,
    dst,
    srcPort: alert.srcPort,
    dstPort: alert.dstPort,
    protocol: alert.protocol,
    impactFlag: 0,
    impact: 0,
    blocked: alert.blocked ? 2 : 0,
    mplsLabel: 0,
    vlanId: vlanIdOf(alert.vlan),
  };
  if (!alert.packet) return [event];
  const packet: Unified2Packet = {
    kind: "packet",
    sensorId,
    eventId,
    eventSecond: alert.tsSec,
    packetSecond: alert.tsSec,
    packetMicrosecond: eventMicrosecond,
    linkType: alert.packet.linkType,
    data: alert.packet.data,
  };
  return [event, packet];
}

/**
 * unified2 holds one VLAN id: the innermost tag, as Snort writes it (its decoder keeps the last VLAN header it
 * reached); 0 when untagged. EVE lists the tags outer first.
 */
export function vlanIdOf(tags: readonly number[] | undefined): number {
  return tags && tags.length > 0 ? (tags[tags.length - 1] as number) & 0xfff : 0;
}
