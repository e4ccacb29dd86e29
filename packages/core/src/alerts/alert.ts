// The normalized alert shared by sanitization and labelling, whichever log it came from (EVE JSON or unified2).

import { formatIpAddress } from "../net/ip-address.js";
import type { ClassificationTable } from "./classification.js";
import type { Unified2Event } from "./unified2-records.js";

export interface Alert {
  /** Seconds since the Unix epoch. */
  tsSec: number;
  /** Nanoseconds within the second; EVE and unified2 carry microseconds, so this is a multiple of 1000. */
  tsNsec: number;
  /** 0 when the log gives no IP addresses (Suricata's alerts on non-IP packets); src and dst are then "". */
  ipVersion: 0 | 4 | 6;
  /** IP protocol number (6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6, …). */
  protocol: number;
  /** Addresses as text: dotted quad, or RFC 5952 IPv6 (compressed, lower case) whatever the log wrote. */
  src: string;
  dst: string;
  /** Ports for TCP/UDP/SCTP; ICMP type and code for ICMP (as unified2 stores them); 0 otherwise. */
  srcPort: number;
  dstPort: number;
  gid: number;
  sid: number;
  rev: number;
  /** The classtype's 1-based position in the classification file; 0 when unknown. */
  classId: number;
  /** The classtype's short name; when only a description is known and the file does not list it, that text; "" when none. */
  className: string;
  /** 1 is the most severe (EVE's "severity"). */
  priority: number;
  /** The rule's message ("" when the log does not carry it, as in unified2). */
  signature: string;
  /** True when the engine dropped the packet (inline mode). */
  blocked: boolean;
  /** Ids of the alerted packet's VLAN tags (EVE "vlan", at most three), outer first; absent when untagged. */
  vlan?: number[];
  /** Suricata's flow id (64-bit, kept as decimal text): alerts of one session share it. */
  flowId?: string;
  /** Start of the alert's flow, when the log says it (EVE with flow metadata). */
  flowStart?: { tsSec: number; tsNsec: number };
  /**
   * 1-based number of the packet that raised the alert in the capture Suricata read (EVE "pcap_cnt"; for a packet
   * Suricata reassembled from fragments or took out of a tunnel, the wire packet's "tunnel.pcap_cnt").
   */
  packetNumber?: number;
  /** unified2 event id (links the event to its packet and extra-data records). */
  eventId?: number;
  /** The packet that raised the alert, when the log carries it. */
  packet?: { linkType: number; data: Uint8Array };
}

/** Normalizes a unified2 event; the classification table names its classtype. */
export function alertFromUnified2Event(event: Unified2Event, classifications?: ClassificationTable): Alert {
  return {
    tsSec: event.eventSecond,
    tsNsec: event.eventMicrosecond * 1000,
    ipVersion: event.src.length === 16 ? 6 : 4,
    protocol: event.protocol,
    src: formatIpAddress(event.src),
    dst: formatIpAddress(event.dst),
    srcPort: event.srcPort,
    dstPort: event.dstPort,
    gid: event.generatorId,
    sid: event.signatureId,
    rev: event.signatureRevision,
    classId: event.classificationId,
    className: classifications?.byId(event.classificationId)?.name ?? "",
    priority: event.priority,
    signature: "",
    blocked: event.blocked !== 0,
    eventId: event.eventId,
  };
}
