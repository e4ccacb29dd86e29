// Which packets belong to an alerted session: Suricata flows (protocol, endpoints either way, first..last packet time)
// plus the very packets that raised alerts, checked per packet in one pass over the capture.
import { type DecodedPacket, DecodeKind } from "@tracemill/core";

const TCP = 6;
const UDP = 17;

/** A Suricata flow in microseconds since the epoch; `endUs` is Infinity when only the flow's start is known. */
export interface AttackFlow {
  protocol: number;
  src: Uint8Array;
  srcPort: number;
  dst: Uint8Array;
  dstPort: number;
  startUs: number;
  endUs: number;
}

export class AttackSessions {
  /** Per endpoint-pair key: [start, end] pairs of alerted flows. */
  private readonly intervals = new Map<string, number[]>();
  /** Cheap first test before building a key: the protocol and unordered port pair of every alerted flow. */
  private readonly portPairs = new Set<number>();
  /** 1-based packet numbers that raised an alert (Suricata's pcap_cnt). */
  private readonly packetNumbers = new Set<number>();
  /** IP fragments follow their datagram's first fragment: key of (addresses, protocol, id) for attack datagrams. */
  private readonly attackDatagrams = new Set<string>();
  flowCount = 0;

  addFlow(flow: AttackFlow): void {
    if (flow.protocol !== TCP && flow.protocol !== UDP) return;
    const key = conversationKey(flow.protocol, flow.src.length, flow.src, flow.srcPort, flow.dst, flow.dstPort);
    const list = this.intervals.get(key);
    if (list) list.push(flow.startUs, flow.endUs);
    else this.intervals.set(key, [flow.startUs, flow.endUs]);
    this.portPairs.add(portPair(flow.protocol, flow.srcPort, flow.dstPort));
    this.flowCount++;
  }

  addPacketNumber(packetNumber: number): void {
    this.packetNumbers.add(packetNumber);
  }

  get empty(): boolean {
    return this.intervals.size === 0 && this.packetNumbers.size === 0;
  }

  /** True when the packet (0-based `index`, time `tsUs`) goes to the attack capture. */
  isAttack(decoded: DecodedPacket, index: number, tsUs: number): boolean {
    let attack = this.packetNumbers.has(index + 1);
    const kind = decoded.kind;
    if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) {
      if (!attack && this.portPairs.has(portPair(decoded.protocol, decoded.srcPort, decoded.dstPort))) {
        attack = this.inAlertedFlow(decoded, tsUs);
      }
      if (attack && decoded.isFragment) this.attackDatagrams.add(datagramKey(decoded));
    } else if (kind === DecodeKind.FragmentPending && this.attackDatagrams.size > 0) {
      attack ||= this.attackDatagrams.has(datagramKey(decoded));
    }
    return attack;
  }

  private inAlertedFlow(d: DecodedPacket, tsUs: number): boolean {
    const length = d.ipVersion === 6 ? 16 : 4;
    const list = this.intervals.get(conversationKey(d.protocol, length, d.src, d.srcPort, d.dst, d.dstPort));
    if (!list) return false;
    for (let i = 0; i < list.length; i += 2) {
      if (tsUs >= list[i] && tsUs <= list[i + 1]) return true;
    }
    return false;
  }
}

/**
 * The same short string for both directions of a conversation: 16-bit units of protocol, both addresses and both ports,
 * lower endpoint first. Far cheaper than text, and only built for packets whose ports already matched.
 */
export function conversationKey(
  protocol: number,
  addressLength: number,
  a: Uint8Array,
  aPort: number,
  b: Uint8Array,
  bPort: number,
): string {
  let order = 0;
  for (let i = 0; i < addressLength && order === 0; i++) order = a[i] - b[i];
  if (order === 0) order = aPort - bPort;
  const [x, xPort, y, yPort] = order <= 0 ? [a, aPort, b, bPort] : [b, bPort, a, aPort];
  const units: number[] = [protocol, xPort, yPort];
  for (let i = 0; i < addressLength; i += 2) units.push((x[i] << 8) | x[i + 1], (y[i] << 8) | y[i + 1]);
  return String.fromCharCode(...units);
}

function portPair(protocol: number, a: number, b: number): number {
  return (a < b ? a * 65536 + b : b * 65536 + a) * 256 + protocol;
}

function datagramKey(d: DecodedPacket): string {
  const length = d.ipVersion === 6 ? 16 : 4;
  return `${conversationKey(d.protocol, length, d.src, 0, d.dst, 0)}/${d.fragmentId}`;
}
