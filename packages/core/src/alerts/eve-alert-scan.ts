// Reads Suricata's EVE alert lines from bytes into one reused record, for sanitization's hundreds of thousands of
// alerts: no line string and no JSON object per alert, and each distinct rule object parsed once. A line it does not
// expect (escapes, tunnels, other layouts) goes through parseEveAlertLine, so both ways give the same values.
import { decodeUtf8 } from "../capture/utf8.js";
import { parseIpAddress } from "../net/ip-address.js";
import type { Alert } from "./alert.js";
import { decodeBase64Bytes, decodeBase64String } from "./base64.js";
import type { ClassificationTable } from "./classification.js";
import { type EveRule, type EveSource, eveRule, parseEveAlertLine, protocolNumber } from "./eve-alert.js";
import { EveAlertFields, eveFlowKey, eveFlowKeyOfText } from "./eve-alert-fields.js";
import { alertFlowMemberOrder, alertMemberOrder, Key } from "./eve-alert-keys.js";
import {
  ascii,
  asciiText,
  bytesEqual,
  digitsValue,
  EveTimeReader,
  eveMembers,
  readIpAddress,
  skipValue,
  stringEnd,
  type TimeOut,
} from "./eve-bytes.js";
import { isEveObject, MAX_U8, MAX_U16, MAX_U32 } from "./eve-members.js";

const QUOTE = 34;
const empty = new Uint8Array(0);

/** How many distinct "alert" objects are compared before one is parsed again. */
const recentRules = 16;

const keys = { linktype: ascii("linktype") };
const alertText = ascii("alert");
const tcp = ascii("TCP");
const udp = ascii("UDP");

export class EveAlertReader {
  readonly fields = new EveAlertFields();
  private readonly times = new EveTimeReader();
  private readonly flowTimes = new EveTimeReader();
  private readonly time: TimeOut = { sec: 0, nsec: 0 };
  /** "alert" objects seen lately with their rules, most used first. */
  private readonly recent: { bytes: Uint8Array; rule: EveRule }[] = [];
  private knownLength = 0;
  private scratch = new Uint8Array(4096);
  private readonly quoteAt = new Int32Array(1);
  private readonly found = new Int32Array(2);
  private readonly members = alertMemberOrder();
  private readonly flowMembers = alertFlowMemberOrder();

  /** `decode` turns a line's bytes into text for the lines read the slow way (default: the core's UTF-8 decoder). */
  constructor(
    private readonly classifications?: ClassificationTable,
    private readonly decode: (bytes: Uint8Array) => string = decodeUtf8,
  ) {}

  /**
   * Reads the line b[start, end): the fields (reused: copy what must outlive the next call), undefined for a blank
   * line and events other than alerts; `addressLength` 0 for an alert without IP addresses. Throws BAD_INPUT as
   * parseEveAlertLine does.
   */
  read(b: Uint8Array, start: number, end: number, source: EveSource = {}): EveAlertFields | undefined {
    if (this.scan(b, start, end)) return this.fields;
    const alert = parseEveAlertLine(this.decode(b.subarray(start, end)), this.classifications, source);
    if (!alert) return undefined;
    this.fromAlert(alert);
    return this.fields;
  }

  /** The fast way: Suricata's compact layout only; false for anything else (the slow way then reads the line). */
  private scan(b: Uint8Array, start: number, end: number): boolean {
    const f = this.fields;
    const t = this.time;
    if (b[start] !== 123 || b[end - 1] !== 125) return false;
    let haveTime = false;
    let isAlert = false;
    let srcLength = -1;
    let dstLength = -1;
    let srcPort = 0;
    let dstPort = 0;
    let icmpType = -1;
    let icmpCode = 0;
    let protocol = 0;
    let pcapCnt = 0;
    let rule: EveRule | undefined;
    // A flag, not a sentinel value: a flow may start before 1970 (Suricata prints what odd captures say).
    let haveFlowStart = false;
    let flowStartUs = 0;
    let packetFrom = -1;
    let packetTo = -1;
    let packetLength = -1;
    let linkType = -1;
    f.flowId = undefined;
    f.vlanCount = 0;
    let i = start + 1;
    const members = this.members;
    members.reset();
    for (;;) {
      const key = members.read(b, i, end);
      if (key < 0) return false;
      const v = members.valueAt;
      const isString = b[v] === QUOTE;
      let next = -1;
      switch (key) {
        case Key.Timestamp:
          next = skipValue(b, v, end);
          if (!isString || next < 0 || !this.times.read(b, v + 1, next - 1, t)) return false;
          f.tsSec = t.sec;
          f.tsNsec = t.nsec;
          haveTime = true;
          break;
        case Key.FlowId:
          next = skipValue(b, v, end);
          f.flowId = next < 0 ? undefined : eveFlowKey(b, v, next);
          if (f.flowId === undefined) return false;
          break;
        case Key.PcapCnt:
          next = skipValue(b, v, end);
          pcapCnt = next < 0 ? -1 : digitsValue(b, v, next);
          if (pcapCnt < 0) return false;
          break;
        case Key.EventType:
          next = skipValue(b, v, end);
          if (!isString || next < 0 || !bytesEqual(b, v + 1, next - 1, alertText)) return false;
          isAlert = true;
          break;
        case Key.Vlan:
          next = this.readVlan(b, v, end);
          if (next < 0) return false;
          break;
        case Key.SrcIp:
          next = skipValue(b, v, end);
          if (!isString || next < 0) return false;
          srcLength = readIpAddress(b, v + 1, next - 1, f.src);
          break;
        case Key.DestIp:
          next = skipValue(b, v, end);
          if (!isString || next < 0) return false;
          dstLength = readIpAddress(b, v + 1, next - 1, f.dst);
          break;
        case Key.SrcPort:
          next = skipValue(b, v, end);
          srcPort = next < 0 ? -1 : digitsValue(b, v, next);
          if (srcPort < 0 || srcPort > MAX_U16) return false;
          break;
        case Key.DestPort:
          next = skipValue(b, v, end);
          dstPort = next < 0 ? -1 : digitsValue(b, v, next);
          if (dstPort < 0 || dstPort > MAX_U16) return false;
          break;
        case Key.Proto:
          next = skipValue(b, v, end);
          if (!isString || next < 0) return false;
          if (bytesEqual(b, v + 1, next - 1, tcp)) protocol = 6;
          else if (bytesEqual(b, v + 1, next - 1, udp)) protocol = 17;
          else {
            const text = asciiText(b, v + 1, next - 1);
            if (text === undefined) return false;
            protocol = protocolNumber(text);
          }
          break;
        case Key.IcmpType:
          next = skipValue(b, v, end);
          icmpType = next < 0 ? -1 : digitsValue(b, v, next);
          if (icmpType < 0 || icmpType > MAX_U8) return false;
          break;
        case Key.IcmpCode:
          next = skipValue(b, v, end);
          icmpCode = next < 0 ? -1 : digitsValue(b, v, next);
          if (icmpCode < 0 || icmpCode > MAX_U8) return false;
          break;
        case Key.Alert:
          if (b[v] !== 123) return false;
          rule = this.knownRule(b, v, end);
          if (rule) next = v + this.knownLength;
          else {
            next = skipValue(b, v, end);
            rule = next < 0 ? undefined : this.newRule(b, v, next);
            if (!rule) return false;
          }
          break;
        case Key.Flow: {
          next = this.flowMembers.findIn(b, v, end, Key.Start);
          if (next < 0) return false;
          const s = this.flowMembers.foundAt;
          if (s >= 0) {
            const to = b[s] === QUOTE ? stringEnd(b, s + 1, next) : -1;
            if (to < 0 || !this.flowTimes.read(b, s + 1, to, t)) return false;
            flowStartUs = t.sec * 1_000_000 + Math.floor(t.nsec / 1000);
            haveFlowStart = true;
          }
          break;
        }
        case Key.Packet:
          if (!isString) return false;
          // Decoded while its end is looked for; anything unusual in it is read again the two-pass way below.
          packetLength = decodeBase64String(b, v + 1, end, this.scratch, this.quoteAt);
          if (packetLength >= 0) {
            next = this.quoteAt[0] + 1;
            packetFrom = -1;
          } else {
            next = skipValue(b, v, end);
            if (next < 0) return false;
            packetFrom = v + 1;
            packetTo = next - 1;
          }
          break;
        case Key.PacketInfo: {
          next = eveMembers(b, v, end, keys.linktype, undefined, this.found);
          if (next < 0) return false;
          const l = this.found[0];
          if (l >= 0) {
            linkType = digitsValue(b, l, skipValue(b, l, next));
            if (linkType < 0 || linkType > MAX_U32) return false;
          }
          break;
        }
        case Key.Tunnel:
          return false;
        default:
          next = skipValue(b, v, end);
          if (next < 0) return false;
      }
      if (b[next] === 44) i = next + 1;
      else if (next === end - 1) break;
      else return false;
    }
    if (!haveTime || !isAlert || srcLength < 0 || srcLength !== dstLength || !rule) return false;
    let packet = empty;
    if (packetFrom >= 0) {
      if (this.scratch.length < packetTo - packetFrom) this.scratch = new Uint8Array(packetTo - packetFrom);
      packetLength = decodeBase64Bytes(b, packetFrom, packetTo, this.scratch);
      // An escaped "/" the slow way unescapes, or text that is not base64, which it reports.
      if (packetLength < 0) return false;
    }
    if (packetLength > 0 && linkType >= 0) packet = this.scratch.subarray(0, packetLength);
    f.addressLength = srcLength;
    f.protocol = protocol;
    f.srcPort = icmpType >= 0 ? icmpType : srcPort;
    f.dstPort = icmpType >= 0 ? icmpCode : dstPort;
    f.rule = rule;
    f.flowStartUs = haveFlowStart ? flowStartUs : f.tsSec * 1_000_000 + Math.floor(f.tsNsec / 1000);
    f.packetNumber = pcapCnt;
    f.packet = packet;
    f.linkType = linkType >= 0 ? linkType : 1;
    return true;
  }

  /** Reads a "vlan" array of up to three ids at b[at] into the fields; the index past it, -1 for anything else. */
  private readVlan(b: Uint8Array, at: number, end: number): number {
    const f = this.fields;
    if (b[at] !== 91) return -1;
    let i = at + 1;
    for (;;) {
      let to = i;
      while (to < end && b[to] >= 48 && b[to] <= 57) to++;
      const id = digitsValue(b, i, to);
      if (id < 0 || id > MAX_U16 || f.vlanCount === f.vlanIds.length) return -1;
      f.vlanIds[f.vlanCount++] = id;
      if (b[to] === 93) return to + 1;
      if (b[to] !== 44) return -1;
      i = to + 1;
    }
  }

  /**
   * The rule of the "alert" object at b[at], when its text is one seen lately (`knownLength` is then its length):
   * alerts of one rule repeat the same object, and a different one differs within its first few dozen bytes.
   */
  private knownRule(b: Uint8Array, at: number, end: number): EveRule | undefined {
    const recent = this.recent;
    for (let r = 0; r < recent.length; r++) {
      const known = recent[r];
      const bytes = known.bytes;
      const n = bytes.length;
      if (at + n >= end) continue;
      let i = 0;
      while (i < n && b[at + i] === bytes[i]) i++;
      // Equal bytes form a whole object, so the value ends there if a separator follows.
      if (i === n && (b[at + n] === 44 || b[at + n] === 125)) {
        if (r > 0) {
          recent[r] = recent[r - 1];
          recent[r - 1] = known;
        }
        this.knownLength = n;
        return known.rule;
      }
    }
    return undefined;
  }

  /** Parses an "alert" object b[from, to) not seen lately, and remembers it. */
  private newRule(b: Uint8Array, from: number, to: number): EveRule | undefined {
    let rule: EveRule;
    try {
      const object: unknown = JSON.parse(this.decode(b.subarray(from, to)));
      if (!isEveObject(object)) return undefined;
      rule = eveRule(object, this.classifications);
    } catch {
      // Not JSON, or a member of the wrong type: the slow way names it.
      return undefined;
    }
    if (this.recent.length === recentRules) this.recent.pop();
    this.recent.push({ bytes: b.slice(from, to), rule });
    return rule;
  }

  private fromAlert(alert: Alert): void {
    const f = this.fields;
    f.tsSec = alert.tsSec;
    f.tsNsec = alert.tsNsec;
    f.protocol = alert.protocol;
    f.srcPort = alert.srcPort;
    f.dstPort = alert.dstPort;
    const src = parseIpAddress(alert.src);
    const dst = parseIpAddress(alert.dst);
    if (src && dst) {
      f.src.set(src);
      f.dst.set(dst);
    }
    f.addressLength = src ? src.length : 0;
    const { gid, sid, rev, classId, className, priority, signature, blocked } = alert;
    f.rule = { gid, sid, rev, classId, className, priority, signature, blocked };
    f.flowId = alert.flowId === undefined ? undefined : eveFlowKeyOfText(alert.flowId);
    f.vlanCount = alert.vlan?.length ?? 0;
    if (alert.vlan) f.vlanIds.set(alert.vlan);
    const start = alert.flowStart ?? alert;
    f.flowStartUs = start.tsSec * 1_000_000 + Math.floor(start.tsNsec / 1000);
    f.packetNumber = alert.packetNumber ?? 0;
    f.packet = alert.packet?.data ?? empty;
    f.linkType = alert.packet?.linkType ?? 1;
  }
}
