// The unified2 record kinds Tracemill reads and writes (Snort's binary alert log): events, packets and extra data.

/** Record type numbers as they appear in the 8-byte record header. */
export const Unified2Type = {
  /** A packet belonging to an event (its link-layer bytes). */
  Packet: 2,
  /** IPv4 event, first version (52 bytes). */
  EventIpv4: 7,
  /** IPv6 event, first version (76 bytes). */
  EventIpv6: 72,
  /** IPv4 event with MPLS label and VLAN id (60 bytes). */
  EventIpv4V2: 104,
  /** IPv6 event with MPLS label and VLAN id (84 bytes). */
  EventIpv6V2: 105,
  /** Extra data attached to an event (URIs, hostnames, gzip bodies, …). */
  ExtraData: 110,
} as const;
export type Unified2EventType = 7 | 72 | 104 | 105;

/** One intrusion event: which rule fired, on which endpoints, when. Addresses are 4 or 16 bytes. */
export interface Unified2Event {
  kind: "event";
  type: Unified2EventType;
  sensorId: number;
  eventId: number;
  eventSecond: number;
  eventMicrosecond: number;
  signatureId: number;
  generatorId: number;
  signatureRevision: number;
  /** The classtype's 1-based position in classification.config (0: none). */
  classificationId: number;
  priority: number;
  src: Uint8Array;
  dst: Uint8Array;
  /** Source port, or the ICMP type. */
  srcPort: number;
  /** Destination port, or the ICMP code. */
  dstPort: number;
  protocol: number;
  impactFlag: number;
  impact: number;
  blocked: number;
  /** Present in the V2 records (104, 105) only; 0 elsewhere. */
  mplsLabel: number;
  vlanId: number;
}

/** A packet attached to an event (linked by sensor, event id and event second). */
export interface Unified2Packet {
  kind: "packet";
  sensorId: number;
  eventId: number;
  eventSecond: number;
  packetSecond: number;
  packetMicrosecond: number;
  linkType: number;
  data: Uint8Array;
}

/** Extra data attached to an event; `extraType` says what it is (Snort's EVENT_INFO_* numbers). */
export interface Unified2ExtraData {
  kind: "extra-data";
  sensorId: number;
  eventId: number;
  eventSecond: number;
  extraType: number;
  /** 1 for a blob (the only type Snort defines). */
  dataType: number;
  data: Uint8Array;
}

export type Unified2Record = Unified2Event | Unified2Packet | Unified2ExtraData;

/** Fixed body sizes of the event records, by type. */
export const unified2EventLength: Record<Unified2EventType, number> = { 7: 52, 72: 76, 104: 60, 105: 84 };
/** Fixed part of a packet record's body, before the packet bytes. */
export const unified2PacketHeaderLength = 28;
/** Fixed part of an extra-data record's body, before the data. */
export const unified2ExtraDataHeaderLength = 32;
/** The event_type word that opens an extra-data record (Snort's EVENT_TYPE_EXTRA_DATA). */
export const unified2ExtraDataEventType = 4;
