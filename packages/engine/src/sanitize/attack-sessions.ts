// Which packets belong to an alerted session: Suricata flows (protocol, VLAN stack, endpoints either way, first..last
// packet time) plus the very packets that raised alerts, checked per packet in one pass over the capture.
import { type DecodedPacket, DecodeKind, endpointPairKey, TracemillError } from "@tracemill/core";
import { Ipv4Intervals, MAX_VLAN_INDEX } from "./ipv4-intervals.js";
import { NO_VLAN, packetVlanKey } from "./vlan-key.js";

const TCP = 6;
const UDP = 17;

/** A Suricata flow in microseconds since the epoch; `endUs` is Infinity when only the flow's start is known. */
export interface AttackFlow {
  protocol: number;
  src: Uint8Array;
  srcPort: number;
  dst: Uint8Array;
  dstPort: number;
  /** The flow's VLAN stack (see vlanKey); NO_VLAN without tags. */
  vlan: number;
  startUs: number;
  endUs: number;
}

export class AttackSessions {
  /** IPv4 sessions: [start, end] intervals of alerted flows per protocol and endpoint pair. */
  private readonly ipv4 = new Ipv4Intervals();
  /** Other (IPv6) sessions, per endpoint-pair key: [start, end] pairs of alerted flows. */
  private readonly intervals = new Map<string, number[]>();
  /**
   * Cheap first test before building a key: a bit per hash of protocol and unordered port pair of the alerted flows
   * (collisions only cost a key lookup). Bit sets, not Sets: this runs for every packet of the capture.
   */
  private readonly portPairs = new Uint8Array(portPairBits / 8);
  /**
   * Bit per 1-based packet number that raised an alert (Suricata's pcap_cnt). Room for a million packets from the
   * start: growing is rare then, and a grow met late stops the optimized alert handler.
   */
  private packetNumbers = new Uint8Array(128 * 1024);
  private packetNumberCount = 0;
  /** IP fragments follow their datagram's first fragment: key of (addresses, protocol, id) for attack datagrams. */
  private readonly attackDatagrams = new Set<string>();
  /**
   * A small number for each VLAN stack of the alerted flows (NO_VLAN is 0), as the IPv4 table keys them: a packet on
   * a stack not listed here is in no alerted flow.
   */
  private readonly vlanIndexes = new Map<number, number>([[NO_VLAN, 0]]);
  flowCount = 0;

  addFlow(flow: AttackFlow): void {
    if (flow.protocol !== TCP && flow.protocol !== UDP) return;
    if (flow.src.length === 4) {
      let vlan = this.vlanIndexes.get(flow.vlan);
      if (vlan === undefined) {
        vlan = this.vlanIndexes.size;
        if (vlan > MAX_VLAN_INDEX) {
          const why = `alerted sessions on more than ${MAX_VLAN_INDEX} VLAN stacks, more than the split can tell apart`;
          throw new TracemillError("BAD_INPUT", why);
        }
        this.vlanIndexes.set(flow.vlan, vlan);
      }
      const { protocol, src, srcPort, dst, dstPort, startUs, endUs } = flow;
      this.ipv4.add(protocol, vlan, src, srcPort, dst, dstPort, startUs, endUs);
    } else {
      const key = withVlan(
        endpointPairKey(flow.protocol, flow.src.length, flow.src, flow.srcPort, flow.dst, flow.dstPort),
        flow.vlan,
      );
      const list = this.intervals.get(key);
      if (list) list.push(flow.startUs, flow.endUs);
      else this.intervals.set(key, [flow.startUs, flow.endUs]);
    }
    const h = portPairHash(flow.protocol, flow.srcPort, flow.dstPort);
    this.portPairs[h >> 3] |= 1 << (h & 7);
    this.flowCount++;
  }

  addPacketNumber(packetNumber: number): void {
    if (packetNumber >> 3 >= this.packetNumbers.length) {
      const grown = new Uint8Array(Math.max(this.packetNumbers.length * 2, (packetNumber >> 3) + 1));
      grown.set(this.packetNumbers);
      this.packetNumbers = grown;
    }
    this.packetNumbers[packetNumber >> 3] |= 1 << (packetNumber & 7);
    this.packetNumberCount++;
  }

  get empty(): boolean {
    return this.flowCount === 0 && this.packetNumberCount === 0;
  }

  /** True when the packet (0-based `index`, time `tsUs`) goes to the attack capture. */
  isAttack(decoded: DecodedPacket, index: number, tsUs: number): boolean {
    const number = index + 1;
    let attack =
      number >> 3 < this.packetNumbers.length && (this.packetNumbers[number >> 3] & (1 << (number & 7))) !== 0;
    const kind = decoded.kind;
    if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) {
      const h = portPairHash(decoded.protocol, decoded.srcPort, decoded.dstPort);
      if (!attack && (this.portPairs[h >> 3] & (1 << (h & 7))) !== 0) attack = this.inAlertedFlow(decoded, tsUs);
      if (attack && decoded.isFragment) this.attackDatagrams.add(datagramKey(decoded));
    } else if (kind === DecodeKind.FragmentPending && this.attackDatagrams.size > 0) {
      attack ||= this.attackDatagrams.has(datagramKey(decoded));
    }
    return attack;
  }

  /**
   * isAttack read straight from an Ethernet frame at d[o, o + capturedLength) when it holds an untagged unfragmented IPv4
   * TCP/UDP packet whose headers the decoder would take as whole (the same checks, so the same ports); undefined
   * for any other packet, which the caller decodes. Most packets of a capture take this way.
   */
  isAttackEthernetIpv4(d: Uint8Array, o: number, capturedLength: number, index: number, tsUs: number) {
    const end = o + capturedLength;
    const ip = o + 14;
    if (capturedLength < 34 || d[o + 12] !== 0x08 || d[o + 13] !== 0x00 || d[ip] >> 4 !== 4) return undefined;
    const headerLength = (d[ip] & 0x0f) << 2;
    const total = (d[ip + 2] << 8) | d[ip + 3];
    // A total length of 0 (segmentation offload), options past the capture, any fragment: the decoder's way.
    if (headerLength < 20 || total < headerLength || ip + headerLength > end) return undefined;
    if ((d[ip + 6] & 0x3f) !== 0 || d[ip + 7] !== 0) return undefined;
    const protocol = d[ip + 9];
    const t = ip + headerLength;
    const ipEnd = ip + total;
    if (protocol === TCP) {
      if (t + 20 > ipEnd || t + 20 > end) return undefined;
      const tcpLength = (d[t + 12] >> 4) << 2;
      if (tcpLength < 20 || t + tcpLength > ipEnd || t + tcpLength > end) return undefined;
    } else if (protocol === UDP) {
      if (t + 8 > ipEnd || t + 8 > end) return undefined;
    } else return undefined;
    const number = index + 1;
    if (number >> 3 < this.packetNumbers.length && (this.packetNumbers[number >> 3] & (1 << (number & 7))) !== 0) {
      return true;
    }
    const srcPort = (d[t] << 8) | d[t + 1];
    const dstPort = (d[t + 2] << 8) | d[t + 3];
    const h = portPairHash(protocol, srcPort, dstPort);
    if ((this.portPairs[h >> 3] & (1 << (h & 7))) === 0) return false;
    return this.ipv4.containsAt(protocol, 0, d, ip + 12, srcPort, d, ip + 16, dstPort, tsUs);
  }

  private inAlertedFlow(d: DecodedPacket, tsUs: number): boolean {
    const vlanKey = packetVlanKey(d);
    if (d.ipVersion === 4) {
      const vlan = vlanKey === NO_VLAN ? 0 : this.vlanIndexes.get(vlanKey);
      return vlan !== undefined && this.ipv4.contains(d.protocol, vlan, d.src, d.srcPort, d.dst, d.dstPort, tsUs);
    }
    const length = d.ipVersion === 6 ? 16 : 4;
    const pair = endpointPairKey(d.protocol, length, d.src, d.srcPort, d.dst, d.dstPort);
    const list = this.intervals.get(withVlan(pair, vlanKey));
    if (!list) return false;
    for (let i = 0; i < list.length; i += 2) {
      if (tsUs >= list[i] && tsUs <= list[i + 1]) return true;
    }
    return false;
  }
}

const portPairBits = 1 << 24;

function portPairHash(protocol: number, a: number, b: number): number {
  const low = a < b ? a : b;
  const high = a < b ? b : a;
  return (Math.imul(low, 0x9e3779b1) ^ Math.imul(high + (protocol << 16), 0x85ebca6b)) >>> 8;
}

/** A fragmented datagram's key: Suricata reassembles by VLAN stack too. */
function datagramKey(d: DecodedPacket): string {
  const length = d.ipVersion === 6 ? 16 : 4;
  return withVlan(`${endpointPairKey(d.protocol, length, d.src, 0, d.dst, 0)}/${d.fragmentId}`, packetVlanKey(d));
}

/** A text key of the VLAN stack `vlan` (the key itself when there is none: keys of untagged traffic stay as they were). */
function withVlan(key: string, vlan: number): string {
  return vlan === NO_VLAN ? key : `${key}@${vlan}`;
}
