// Reads one line of Suricata's EVE JSON into the normalized Alert (non-alert events are ignored), checking the type of
// every member it reads (docs/formats.md, "Alert inputs").
import { TracemillError } from "../errors.js";
import { formatIpAddress, parseIpAddress } from "../net/ip-address.js";
import type { Alert } from "./alert.js";
import { decodeBase64 } from "./base64.js";
import type { ClassificationTable } from "./classification.js";
import {
  EveMemberError,
  type EveObject,
  isEveObject,
  MAX_U8,
  MAX_U16,
  MAX_U32,
  memberError,
  objectMember,
  stringMember,
  wholeMember,
} from "./eve-members.js";

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
 * Parses one EVE line. Returns undefined for a blank line and for events other than alerts (a line holding no
 * `"alert"` text is only checked to be `{…}`: most of an EVE file is other events, not worth a JSON parse). Throws
 * BAD_INPUT naming the line, and the member when one is at fault, for a line that is not a JSON object, an alert
 * without "timestamp" or "alert", or a member read here that has the wrong JSON type or does not read. An alert
 * without addresses (Suricata's alerts on non-IP packets) comes back with ipVersion 0. The classification table turns
 * EVE's category text into the classtype's id and short name.
 */
export function parseEveAlertLine(
  line: string,
  classifications?: ClassificationTable,
  source: EveSource = {},
): Alert | undefined {
  const from = skipSpace(line, 0);
  if (from === line.length) return undefined;
  if (!line.includes('"alert"')) {
    if (line.charCodeAt(from) !== 123 || line.charCodeAt(trimmedEnd(line) - 1) !== 125) {
      throw badLine("not a JSON object", source);
    }
    return undefined;
  }
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    throw badLine("not JSON", source);
  }
  if (!isEveObject(event)) throw badLine("not a JSON object", source);
  if (event.event_type !== "alert") return undefined;
  try {
    return alertOfEvent(event, line, classifications);
  } catch (error) {
    if (error instanceof EveMemberError) throw badLine(error.message, source, error.member);
    throw error;
  }
}

function alertOfEvent(event: EveObject, line: string, classifications?: ClassificationTable): Alert {
  const time = stringMember(event, "timestamp");
  if (time === undefined) throw new EveMemberError("timestamp", 'an alert without "timestamp"');
  const ts = parseEveTimestamp(time);
  if (!ts) throw memberError("timestamp", time, "a time");
  const alert = objectMember(event, "alert");
  if (!alert) throw new EveMemberError("alert", 'an alert without its "alert" object');
  const src = address(event, "src_ip");
  const dst = address(event, "dest_ip");
  if ((src === undefined) !== (dst === undefined)) {
    const [given, missing] = src ? ["src_ip", "dest_ip"] : ["dest_ip", "src_ip"];
    throw new EveMemberError(missing, `"${given}" without "${missing}"`);
  }
  if (src && dst && src.length !== dst.length) {
    throw new EveMemberError("dest_ip", '"src_ip" and "dest_ip" are of different IP versions');
  }
  const protocol = protocolMember(event);
  const rule = eveRule(alert, classifications);
  const icmpType = wholeMember(event, "icmp_type", MAX_U8);
  const icmpCode = wholeMember(event, "icmp_code", MAX_U8);
  const srcPort = wholeMember(event, "src_port", MAX_U16);
  const dstPort = wholeMember(event, "dest_port", MAX_U16);
  const flowId = flowIdMember(event, line);
  const vlan = vlanMember(event);
  const flow = objectMember(event, "flow");
  const flowStartText = flow && stringMember(flow, "start", "flow.start");
  const flowStart = flowStartText === undefined ? undefined : parseEveTimestamp(flowStartText);
  if (flowStartText !== undefined && !flowStart) throw memberError("flow.start", flowStartText, "a time");
  const tunnel = objectMember(event, "tunnel");
  const pcapCnt = wholeMember(event, "pcap_cnt", Number.MAX_SAFE_INTEGER);
  const tunnelPcapCnt = tunnel && wholeMember(tunnel, "pcap_cnt", Number.MAX_SAFE_INTEGER, "tunnel.pcap_cnt");
  const packetText = stringMember(event, "packet");
  const packet = packetText === undefined ? undefined : decodeBase64(packetText);
  if (packetText !== undefined && !packet) throw memberError("packet", packetText, "base64 text");
  const packetInfo = objectMember(event, "packet_info");
  const linkType = packetInfo && wholeMember(packetInfo, "linktype", MAX_U32, "packet_info.linktype");
  const icmp = icmpType !== undefined;
  const result: Alert = {
    tsSec: ts.tsSec,
    tsNsec: ts.tsNsec,
    ipVersion: src ? (src.length === 16 ? 6 : 4) : 0,
    protocol,
    src: src ? formatIpAddress(src) : "",
    dst: dst ? formatIpAddress(dst) : "",
    srcPort: icmp ? icmpType : (srcPort ?? 0),
    dstPort: icmp ? (icmpCode ?? 0) : (dstPort ?? 0),
    gid: rule.gid,
    sid: rule.sid,
    rev: rule.rev,
    classId: rule.classId,
    className: rule.className,
    priority: rule.priority,
    signature: rule.signature,
    blocked: rule.blocked,
  };
  if (vlan) result.vlan = vlan;
  if (flowId) result.flowId = flowId;
  if (flowStart) result.flowStart = flowStart;
  // A reassembled or decapsulated packet has no number of its own; the wire packet that completed it has.
  const packetNumber = pcapCnt || tunnelPcapCnt;
  if (packetNumber) result.packetNumber = packetNumber;
  if (packet && packet.length > 0 && linkType !== undefined) result.packet = { linkType, data: packet };
  return result;
}

/** The address member's bytes; undefined when absent. */
function address(event: EveObject, key: string): Uint8Array | undefined {
  const text = stringMember(event, key);
  if (text === undefined) return undefined;
  const bytes = parseIpAddress(text);
  if (!bytes) throw memberError(key, text, "an IP address");
  return bytes;
}

/** "vlan": up to three whole ids, outer first; undefined when absent. */
function vlanMember(event: EveObject): number[] | undefined {
  const value = event.vlan;
  if (value === undefined) return undefined;
  const ids = Array.isArray(value) && value.length <= 3 ? value : undefined;
  if (!ids?.every((id) => Number.isInteger(id) && id >= 0 && id <= MAX_U16)) {
    throw memberError("vlan", value, "up to three VLAN ids");
  }
  return ids.length > 0 ? (ids as number[]) : undefined;
}

function protocolMember(event: EveObject): number {
  const proto = event.proto;
  if (proto === undefined || typeof proto === "string") return protocolNumber(proto);
  if (typeof proto === "number" && Number.isInteger(proto) && proto >= 0 && proto <= MAX_U8) return proto;
  throw memberError("proto", proto, "a protocol name or a number from 0 to 255");
}

/**
 * Suricata's flow id as decimal text. It is a 64-bit integer, which JSON.parse rounds beyond 2^53, so such a one is
 * taken from the line's text.
 */
function flowIdMember(event: EveObject, line: string): string | undefined {
  const id = event.flow_id;
  if (id === undefined) return undefined;
  if (typeof id !== "number" || !Number.isInteger(id) || id < 0) throw memberError("flow_id", id, "a whole number");
  if (Number.isSafeInteger(id)) return String(id);
  return /"flow_id":\s*(\d+)/.exec(line)?.[1] ?? String(id);
}

/** What an EVE alert says about its rule (the "alert" object), with defaults for what it leaves out. */
export type EveRule = Pick<
  Alert,
  "gid" | "sid" | "rev" | "classId" | "className" | "priority" | "signature" | "blocked"
>;

/**
 * The rule of an EVE "alert" object; the classification table turns its category text into the classtype. Throws
 * EveMemberError for a member of the wrong type.
 */
export function eveRule(alert: EveObject, classifications?: ClassificationTable): EveRule {
  const category = stringMember(alert, "category", "alert.category");
  const classification = category ? classifications?.byDescription(category) : undefined;
  return {
    gid: wholeMember(alert, "gid", MAX_U32, "alert.gid") ?? 1,
    sid: wholeMember(alert, "signature_id", MAX_U32, "alert.signature_id") ?? 0,
    rev: wholeMember(alert, "rev", MAX_U32, "alert.rev") ?? 0,
    classId: classification?.id ?? 0,
    className: classification?.name ?? category ?? "",
    priority: wholeMember(alert, "severity", MAX_U32, "alert.severity") ?? classification?.priority ?? 3,
    signature: stringMember(alert, "signature", "alert.signature") ?? "",
    blocked: stringMember(alert, "action", "alert.action") === "blocked",
  };
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function trimmedEnd(text: string): number {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

/** JSON's whitespace. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
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

/** EVE's "proto" text as a protocol number: a name Suricata writes, or the number it writes for others; else 0. */
export function protocolNumber(proto: string | undefined): number {
  if (!proto) return 0;
  const known = protocolNumbers[proto.toUpperCase()];
  if (known !== undefined) return known;
  return /^\d{1,3}$/.test(proto) && Number(proto) <= 255 ? Number(proto) : 0;
}

function badLine(what: string, source: EveSource, member?: string): TracemillError {
  const where = `${source.file ?? "eve.json"}${source.line ? `, line ${source.line}` : ""}`;
  return new TracemillError("BAD_INPUT", `${where}: ${what}`, { file: source.file, line: source.line, member });
}
