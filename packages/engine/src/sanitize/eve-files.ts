// Suricata's EVE flow records, read from bytes: counted, and the alerted ones turned into the time intervals of
// their sessions. A line in an unexpected layout is read as text with patterns instead.
import {
  ascii,
  bytesEqual,
  digitsValue,
  EveTimeReader,
  eveFlowKey,
  eveFlowKeyOfText,
  parseEveTimestamp,
  parseIpAddress,
  readIpAddress,
  skipValue,
  stringEnd,
  type TimeOut,
} from "@tracemill/core";
import { readLinesAt } from "../suricata/line-tail.js";
import type { AttackFlow } from "./attack-sessions.js";
import { eveVlanKeyOfText, NO_VLAN, readEveVlanKey } from "./vlan-key.js";

/** A flow id as alerts and flow records share it (see eveFlowKey). */
export type FlowKey = number | string;

const QUOTE = 34;
const keys = {
  flowId: ascii("flow_id"),
  srcIp: ascii("src_ip"),
  destIp: ascii("dest_ip"),
  srcPort: ascii("src_port"),
  destPort: ascii("dest_port"),
  proto: ascii("proto"),
  vlan: ascii("vlan"),
  flow: ascii("flow"),
  start: ascii("start"),
  end: ascii("end"),
};

/** Decides which flow records are parsed further; receives those (the flow object is reused: read it at once). */
export type WantsFlow = (id: FlowKey) => boolean;
export type OnFlow = (id: FlowKey, flow: AttackFlow) => void;

export class EveFlowReader {
  /** TCP and UDP flow records read (Suricata's sessions). */
  sessions = 0;
  /** Flow id of the last record read when nobody wanted it then (its alert may come later); else undefined. */
  unwanted: FlowKey | undefined;
  private readonly times = new EveTimeReader();
  private readonly time: TimeOut = { sec: 0, nsec: 0 };
  private readonly flow: AttackFlow = {
    protocol: 0,
    src: new Uint8Array(4),
    srcPort: 0,
    dst: new Uint8Array(4),
    dstPort: 0,
    vlan: NO_VLAN,
    startUs: 0,
    endUs: 0,
  };
  private readonly vlanEnd = new Int32Array(1);
  private readonly v4 = [new Uint8Array(4), new Uint8Array(4)];
  private readonly v6 = [new Uint8Array(16), new Uint8Array(16)];

  /** Reads the flow record b[start, end); when `wants` its flow id, gives its interval to `onFlow`. */
  read(b: Uint8Array, start: number, end: number, wants: WantsFlow, onFlow: OnFlow): void {
    this.unwanted = undefined;
    // Top-level members up to the flow object: id and protocol always, the rest only for a wanted flow.
    let id: FlowKey | undefined;
    let protocol = 0;
    let protoSeen = false;
    let src = -1;
    let dst = -1;
    let srcPort = -1;
    let dstPort = -1;
    let vlan = NO_VLAN;
    let flowFrom = -1;
    let wanted: boolean | undefined;
    let i = start + 1;
    let ok = b[start] === 123;
    while (ok) {
      // A record nobody wants needs only its id and protocol, which come first.
      if (wanted === undefined && protoSeen && id !== undefined && src >= 0 && dst >= 0) {
        wanted = wants(id);
        if (!wanted) break;
      }
      const keyEnd = b[i] === QUOTE ? stringEnd(b, i + 1, end) : -1;
      if (keyEnd < 0 || b[keyEnd + 1] !== 58) {
        ok = false;
        break;
      }
      const k = i + 1;
      const v = keyEnd + 2;
      if (keyEnd - k === 4 && bytesEqual(b, k, keyEnd, keys.flow) && b[v] === 123) {
        flowFrom = v;
        break;
      }
      // Suricata writes "vlan" (outer id first) before the "flow" object, where reading stops.
      const isVlan = keyEnd - k === 4 && bytesEqual(b, k, keyEnd, keys.vlan);
      if (isVlan) vlan = readEveVlanKey(b, v, end, this.vlanEnd);
      const next = isVlan ? this.vlanEnd[0] : skipValue(b, v, end);
      if (next < 0) {
        ok = false;
        break;
      }
      switch (keyEnd - k) {
        case 7:
          if (bytesEqual(b, k, keyEnd, keys.flowId)) id = eveFlowKey(b, v, next);
          else if (bytesEqual(b, k, keyEnd, keys.destIp)) dst = v;
          break;
        case 5:
          if (bytesEqual(b, k, keyEnd, keys.proto)) {
            protoSeen = true;
            protocol = b[v] === QUOTE ? protocolOf(b, v + 1, next - 1) : -1;
          }
          break;
        case 6:
          if (bytesEqual(b, k, keyEnd, keys.srcIp)) src = v;
          break;
        case 8:
          if (bytesEqual(b, k, keyEnd, keys.srcPort)) srcPort = digitsValue(b, v, next);
          break;
        case 9:
          if (bytesEqual(b, k, keyEnd, keys.destPort)) dstPort = digitsValue(b, v, next);
          break;
      }
      if (b[next] === 44) i = next + 1;
      else if (next !== end - 1) ok = false;
      else break;
    }
    if (!ok || id === undefined || !protoSeen || src < 0 || dst < 0) {
      this.readText(Buffer.from(b.buffer, b.byteOffset + start, end - start).toString("utf8"), wants, onFlow);
      return;
    }
    if (protocol === 6 || protocol === 17) this.sessions++;
    if (!(wanted ?? wants(id))) {
      this.unwanted = id;
      return;
    }
    const f = this.flow;
    const srcBytes = this.addressAt(b, src, end, 0);
    const dstBytes = this.addressAt(b, dst, end, 1);
    if (flowFrom < 0 || !this.readInterval(b, flowFrom, end) || !srcBytes || !dstBytes) return;
    f.protocol = protocol;
    f.src = srcBytes;
    f.srcPort = Math.max(srcPort, 0);
    f.dst = dstBytes;
    f.dstPort = Math.max(dstPort, 0);
    f.vlan = vlan;
    onFlow(id, f);
  }

  /** The slow way, for a line of another layout: patterns over its text (first matches, as in the fast way). */
  private readText(text: string, wants: WantsFlow, onFlow: OnFlow): void {
    if (text.includes('"proto":"TCP"') || text.includes('"proto":"UDP"')) this.sessions++;
    const idText = /"flow_id":(\d+)/.exec(text)?.[1];
    const id = idText === undefined ? undefined : eveFlowKeyOfText(idText);
    if (id === undefined) return;
    if (!wants(id)) {
      this.unwanted = id;
      return;
    }
    const src = parseIpAddress(/"src_ip":"([^"]+)"/.exec(text)?.[1] ?? "");
    const dst = parseIpAddress(/"dest_ip":"([^"]+)"/.exec(text)?.[1] ?? "");
    const start = parseEveTimestamp(/"start":"([^"]+)"/.exec(text)?.[1] ?? "");
    const end = parseEveTimestamp(/"end":"([^"]+)"/.exec(text)?.[1] ?? "");
    if (!src || !dst || !start || !end) return;
    const proto = /"proto":"([^"]+)"/.exec(text)?.[1];
    onFlow(id, {
      protocol: proto === "TCP" ? 6 : proto === "UDP" ? 17 : -1,
      src,
      srcPort: Number(/"src_port":(\d+)/.exec(text)?.[1] ?? 0),
      dst,
      dstPort: Number(/"dest_port":(\d+)/.exec(text)?.[1] ?? 0),
      vlan: eveVlanKeyOfText(text),
      startUs: toUs(start),
      endUs: toUs(end),
    });
  }

  /** The address at `at` in one of two reused arrays of its length (`which`: 0 source, 1 destination). */
  private addressAt(b: Uint8Array, at: number, end: number, which: number): Uint8Array | undefined {
    const close = b[at] === QUOTE ? stringEnd(b, at + 1, end) : -1;
    const wide = this.v6[which];
    const length = close < 0 ? -1 : readIpAddress(b, at + 1, close, wide);
    if (length !== 4) return length === 16 ? wide : undefined;
    const out = this.v4[which];
    for (let i = 0; i < 4; i++) out[i] = wide[i];
    return out;
  }

  /**
   * Reads "start" and "end" of the flow object at b[at] into the flow, each timestamp scanned once, and stops as soon
   * as both are read (nothing after them is needed); false when one is missing or does not read.
   */
  private readInterval(b: Uint8Array, at: number, end: number): boolean {
    const f = this.flow;
    let haveStart = false;
    let haveEnd = false;
    if (b[at] !== 123) return false;
    let i = at + 1;
    for (;;) {
      const keyEnd = b[i] === QUOTE ? stringEnd(b, i + 1, end) : -1;
      if (keyEnd < 0 || b[keyEnd + 1] !== 58) return false;
      const v = keyEnd + 2;
      const isStart = bytesEqual(b, i + 1, keyEnd, keys.start);
      let next: number;
      if (isStart || bytesEqual(b, i + 1, keyEnd, keys.end)) {
        const close = b[v] === QUOTE ? stringEnd(b, v + 1, end) : -1;
        if (close < 0 || !this.times.read(b, v + 1, close, this.time)) return false;
        const us = this.time.sec * 1_000_000 + Math.floor(this.time.nsec / 1000);
        if (isStart) {
          f.startUs = us;
          haveStart = true;
        } else {
          f.endUs = us;
          haveEnd = true;
        }
        if (haveStart && haveEnd) return true;
        next = close + 1;
      } else next = skipValue(b, v, end);
      if (next < 0 || b[next] !== 44) return false;
      i = next + 1;
    }
  }
}

function protocolOf(b: Uint8Array, from: number, to: number): number {
  if (to - from !== 3) return -1;
  if (b[from] === 84 && b[from + 1] === 67 && b[from + 2] === 80) return 6;
  if (b[from] === 85 && b[from + 1] === 68 && b[from + 2] === 80) return 17;
  return -1;
}

/** Reads the flow records starting at `offsets` (ascending) in a file of EVE flow records. */
export async function readEveFlowsAt(file: string, offsets: number[], wants: WantsFlow, onFlow: OnFlow): Promise<void> {
  const reader = new EveFlowReader();
  await readLinesAt(file, offsets, (b, start, end) => reader.read(b, start, end, wants, onFlow));
}

function toUs(ts: { tsSec: number; tsNsec: number }): number {
  return ts.tsSec * 1_000_000 + Math.floor(ts.tsNsec / 1000);
}
