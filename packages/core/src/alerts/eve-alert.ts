// Reads one line of Suricata's EVE JSON into the normalized Alert (non-alert events are ignored).
import { TracemillError } from "../errors.js";
import { formatIpAddress, parseIpAddress } from "../net/ip-address.js";
import type { Alert } from "./alert.js";
import { decodeBase64 } from "./base64.js";
import type { ClassificationTable } from "./classification.js";

const protocolNumbers: Record<string, number> = {
  TCP: 6,
  UDP: 17,
  ICMP: 1,
  "IPV6-ICMP": 58,
  ICMPV6: 58,
  SCTP: 132,
  GRE: 47,
  ESP: 50,
  AH: 51,
  IGMP: 2,
};

/** Where a line came from, for error messages. */
export interface EveSource {
  file?: string;
  line?: number;
}

/**
 * Parses one EVE line. Returns undefined for events other than alerts; throws BAD_INPUT for a line that is not JSON
 * or an alert missing what an alert must have. The classification table turns EVE's category text into the
 * classtype's id and short name.
 */
export function parseEveAlertLine(
  line: string,
  classifications?: ClassificationTable,
  source: EveSource = {},
): Alert | undefined {
  if (!line.includes('"event_type":"alert"') && !line.includes('"event_type": "alert"')) return undefined;
  let event: EveAlertEvent;
  try {
    event = JSON.parse(line) as EveAlertEvent;
  } catch {
    throw badLine("is not JSON", source);
  }
  if (event.event_type !== "alert") return undefined;
  const alert = event.alert;
  const ts = parseEveTimestamp(event.timestamp ?? "");
  const src = parseIpAddress(event.src_ip ?? "");
  const dst = parseIpAddress(event.dest_ip ?? "");
  if (!alert || !ts || !src || !dst || src.length !== dst.length) {
    throw badLine("is an alert without timestamp, addresses or alert fields", source);
  }
  const protocol = protocolNumber(event.proto);
  const rule = eveRule(alert, classifications);
  const icmp = event.icmp_type !== undefined;
  // flow_id is a 64-bit integer that JSON.parse would round, so it is taken from the text.
  const flowId = /"flow_id":\s*(\d+)/.exec(line)?.[1];
  const flowStart = event.flow?.start ? parseEveTimestamp(event.flow.start) : undefined;
  const packet =
    typeof event.packet === "string" && event.packet_info?.linktype !== undefined
      ? decodeBase64(event.packet)
      : undefined;
  const result: Alert = {
    tsSec: ts.tsSec,
    tsNsec: ts.tsNsec,
    ipVersion: src.length === 16 ? 6 : 4,
    protocol,
    src: formatIpAddress(src),
    dst: formatIpAddress(dst),
    srcPort: icmp ? (event.icmp_type ?? 0) : (event.src_port ?? 0),
    dstPort: icmp ? (event.icmp_code ?? 0) : (event.dest_port ?? 0),
    gid: rule.gid,
    sid: rule.sid,
    rev: rule.rev,
    classId: rule.classId,
    className: rule.className,
    priority: rule.priority,
    signature: rule.signature,
    blocked: rule.blocked,
  };
  if (flowId) result.flowId = flowId;
  if (flowStart) result.flowStart = flowStart;
  // A reassembled or decapsulated packet has no number of its own; the wire packet that completed it has.
  const packetNumber = event.pcap_cnt || event.tunnel?.pcap_cnt;
  if (packetNumber) result.packetNumber = packetNumber;
  if (packet && packet.length > 0) result.packet = { linkType: event.packet_info?.linktype ?? 1, data: packet };
  return result;
}

/** What an EVE alert says about its rule (the "alert" object), with defaults for what it leaves out. */
export type EveRule = Pick<
  Alert,
  "gid" | "sid" | "rev" | "classId" | "className" | "priority" | "signature" | "blocked"
>;

/** The rule of an EVE "alert" object; the classification table turns its category text into the classtype. */
export function eveRule(alert: EveAlertObject, classifications?: ClassificationTable): EveRule {
  const classification = alert.category ? classifications?.byDescription(alert.category) : undefined;
  return {
    gid: alert.gid ?? 1,
    sid: alert.signature_id ?? 0,
    rev: alert.rev ?? 0,
    classId: classification?.id ?? 0,
    className: classification?.name ?? alert.category ?? "",
    priority: alert.severity ?? classification?.priority ?? 3,
    signature: alert.signature ?? "",
    blocked: alert.action === "blocked",
  };
}

/** Seconds of the last date-and-minute prefix parsed: EVE lines come in time order, so most share it. */
let cachedPrefix = "";
let cachedSeconds = 0;

/**
 * Parses EVE's "2009-11-24T18:15:24.414425+0000" (any fraction length, any offset) to epoch seconds + ns.
 * Years may have more than four digits: Suricata prints what a capture's timestamps say, however odd.
 */
export function parseEveTimestamp(text: string): { tsSec: number; tsNsec: number } | undefined {
  const quick = quickTimestamp(text);
  if (quick) return quick;
  const m = /^((\d{4,6})-(\d\d)-(\d\d)T(\d\d):(\d\d)):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)?$/.exec(text);
  if (!m) return undefined;
  if (m[1] !== cachedPrefix) {
    cachedSeconds = utcMinuteSeconds(+m[2], +m[3] - 1, +m[4], +m[5], +m[6]);
    cachedPrefix = m[1];
  }
  let offset = 0;
  if (m[9] && m[9] !== "Z") {
    const digits = m[9].replace(":", "");
    offset = (digits[0] === "-" ? -1 : 1) * (Number(digits.slice(1, 3)) * 3600 + Number(digits.slice(3, 5)) * 60);
  }
  return { tsSec: cachedSeconds + Number(m[7]) - offset, tsNsec: Number((m[8] ?? "").padEnd(9, "0")) };
}

/** As Date.UTC (fields past their range roll on), but years 0-99 stay themselves: Date.UTC reads them as 19xx. */
function utcMinuteSeconds(year: number, month: number, day: number, hour: number, minute: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute);
  return date.getTime() / 1000;
}

/**
 * Suricata's usual "YYYY-MM-DDTHH:MM:SS.ffffff+0000" within the cached minute, read by position: most EVE
 * timestamps are, and the regular expression was a tenth of an alert's cost. Anything else returns undefined.
 */
function quickTimestamp(text: string): { tsSec: number; tsNsec: number } | undefined {
  if (
    text.length !== 31 ||
    cachedPrefix.length !== 16 ||
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 ||
    !text.endsWith("+0000") ||
    !text.startsWith(cachedPrefix)
  ) {
    return undefined;
  }
  const seconds = digitsAt(text, 17, 19);
  const micros = digitsAt(text, 20, 26);
  if (seconds < 0 || micros < 0) return undefined;
  return { tsSec: cachedSeconds + seconds, tsNsec: micros * 1000 };
}

/** The decimal number in text[from, to), or -1 when a character there is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

export function protocolNumber(proto: string | number | undefined): number {
  if (typeof proto === "number") return proto;
  if (!proto) return 0;
  const known = protocolNumbers[proto.toUpperCase()];
  if (known !== undefined) return known;
  const value = Number(proto);
  return Number.isInteger(value) ? value : 0;
}

function badLine(what: string, source: EveSource): TracemillError {
  const where = `${source.file ?? "eve.json"}${source.line ? `, line ${source.line}` : ""}`;
  return new TracemillError("BAD_INPUT", `${where} ${what}`, { file: source.file, line: source.line });
}

interface EveAlertEvent {
  timestamp?: string;
  event_type?: string;
  src_ip?: string;
  dest_ip?: string;
  src_port?: number;
  dest_port?: number;
  icmp_type?: number;
  icmp_code?: number;
  proto?: string | number;
  pcap_cnt?: number;
  tunnel?: { pcap_cnt?: number };
  alert?: EveAlertObject;
  flow?: { start?: string };
  packet?: string;
  packet_info?: { linktype?: number };
}

/** EVE's "alert" object, as far as Tracemill reads it. */
export interface EveAlertObject {
  action?: string;
  gid?: number;
  signature_id?: number;
  rev?: number;
  signature?: string;
  category?: string;
  severity?: number;
}
