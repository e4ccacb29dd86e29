// The record EveAlertReader fills for each EVE alert line, and the flow-id keys alert and flow records share.
import type { EveRule } from "./eve-alert.js";
import { asciiText, digitsValue } from "./eve-bytes.js";

const empty = new Uint8Array(0);
const noRule: EveRule = {
  gid: 1,
  sid: 0,
  rev: 0,
  classId: 0,
  className: "",
  priority: 3,
  signature: "",
  blocked: false,
};

/** One alert as sanitization needs it; the reader fills the same object for every line. */
export class EveAlertFields {
  tsSec = 0;
  tsNsec = 0;
  protocol = 0;
  /** Ports, or ICMP type and code (as unified2 stores them). */
  srcPort = 0;
  dstPort = 0;
  /** Address bytes: the first `addressLength` (4 or 16; 0 for an alert on a non-IP packet) bytes. */
  readonly src = new Uint8Array(16);
  readonly dst = new Uint8Array(16);
  addressLength = 4;
  /** Shared by every alert with the same EVE "alert" object: do not modify. */
  rule: EveRule = noRule;
  /** Tags of the alerted packet ("vlan"), outer first: Suricata keys flows by them. 0 when untagged. */
  vlanCount = 0;
  /** Their ids; only the first `vlanCount` entries are this alert's. */
  readonly vlanIds = new Uint16Array(3);
  /** Suricata's flow id (see eveFlowKey); undefined when the line has none. */
  flowId: number | string | undefined;
  /** Start of the alert's flow (EVE flow.start), else the alert's own time, in microseconds. */
  flowStartUs = 0;
  /** 1-based packet number (pcap_cnt, else tunnel.pcap_cnt); 0 when none. */
  packetNumber = 0;
  /** The alerted packet's bytes (valid until the next line), empty when EVE carried none, and its link type. */
  packet: Uint8Array = empty;
  linkType = 1;
}

/**
 * A flow id as a map key: the number when a double holds it exactly (Suricata's ids do), else the decimal text.
 * Alert and flow records must both go through this for their keys to meet.
 */
export function eveFlowKey(b: Uint8Array, from: number, to: number): number | string | undefined {
  const value = digitsValue(b, from, to);
  if (value >= 0) return value;
  for (let i = from; i < to; i++) if (b[i] < 48 || b[i] > 57) return undefined;
  return to > from ? (asciiText(b, from, to) as string) : undefined;
}

/** As eveFlowKey, for the decimal text parseEveAlertLine keeps. */
export function eveFlowKeyOfText(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) && text.length <= 16 ? value : text;
}
