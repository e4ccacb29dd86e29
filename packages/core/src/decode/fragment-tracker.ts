// Attributes IPv4/IPv6 fragments after the first to the ports of their datagram, so every fragment counts in its session.
// Fragments are not reassembled: only the first one carries the transport header, and the ports are all a flow needs.

import type { CapturedPacket } from "../capture/packet.js";
import { type DecodedPacket, DecodeKind } from "./decoded-packet.js";

export interface FragmentTrackerOptions {
  /** Capture-time seconds a datagram is remembered after its latest fragment. Default 30. */
  timeoutSec?: number;
  /** Datagrams remembered at once; beyond it the least recently seen is evicted. Default 16 384. */
  maxDatagrams?: number;
  /** Held fragments per datagram still waiting for its first fragment; more are dropped at once. Default 64. */
  maxHeldPerDatagram?: number;
}

/** Why a held fragment will never get its ports. */
export type UnattributedReason = "timeout" | "evicted" | "overflow" | "flush";

/**
 * What the caller does with fragments that arrive before their datagram's first fragment.
 * Every fragment `track()` leaves pending reaches exactly one of `resolved` or `unattributed`, later.
 */
export interface FragmentHandler<T> {
  /** Copy what the caller needs of a pending fragment (timestamp, lengths, addresses…): the packet is reused after. */
  hold(decoded: DecodedPacket, packet: CapturedPacket): T;
  /** The datagram's first fragment arrived (inside a `track()` call): the held fragment has these ports. */
  resolved(held: T, srcPort: number, dstPort: number): void;
  /** The held fragment will never be attributed. */
  unattributed(held: T, reason: UnattributedReason): void;
}

export interface FragmentTrackerStats {
  /** Later fragments given their ports at once (their first fragment was already seen). */
  attributed: number;
  /** Held fragments given their ports when the first fragment arrived. */
  resolvedLater: number;
  /** Fragments held right now. */
  held: number;
  /** Held fragments never attributed, by reason. */
  expired: number;
  evicted: number;
  overflow: number;
  flushed: number;
  /** Datagrams evicted to stay within `maxDatagrams`. */
  evictedDatagrams: number;
  /** First fragments that changed the ports already known for their key (IP id reuse or overlapping first fragments). */
  portsChanged: number;
}

interface Datagram<T> {
  known: boolean;
  srcPort: number;
  dstPort: number;
  /** Capture time of its latest fragment: whole seconds and nanoseconds. */
  lastSec: number;
  lastNsec: number;
  held: T[] | null;
}

const TCP = 6;
const UDP = 17;
const NS = 1e9;

export class FragmentTracker<T> {
  readonly stats: FragmentTrackerStats = {
    attributed: 0,
    resolvedLater: 0,
    held: 0,
    expired: 0,
    evicted: 0,
    overflow: 0,
    flushed: 0,
    evictedDatagrams: 0,
    portsChanged: 0,
  };
  private readonly timeoutNs: number;
  private readonly maxDatagrams: number;
  private readonly maxHeld: number;
  /** Keyed by version, protocol, id, source and destination; kept in least-recently-seen order. */
  private readonly datagrams = new Map<string, Datagram<T>>();
  /**
   * Capture time, never going backwards (so the map's order is also the order of the datagrams' latest fragments),
   * kept as whole seconds and nanoseconds so that timeouts are exact at any time since the epoch.
   */
  private clockSec = Number.NEGATIVE_INFINITY;
  private clockNsec = 0;
  /** The latest fragment of the least recently seen datagram (+∞ without datagrams): nothing expires before it does. */
  private oldestSec = Number.POSITIVE_INFINITY;
  private oldestNsec = 0;

  constructor(
    private readonly handler: FragmentHandler<T>,
    options: FragmentTrackerOptions = {},
  ) {
    this.timeoutNs = (options.timeoutSec ?? 30) * NS;
    this.maxDatagrams = options.maxDatagrams ?? 16_384;
    this.maxHeld = options.maxHeldPerDatagram ?? 64;
  }

  /** Datagrams remembered now. */
  get size(): number {
    return this.datagrams.size;
  }

  /**
   * Feed every decoded packet (non-fragments return at once). A first fragment records its ports and resolves the
   * fragments held for it; a later TCP/UDP fragment gets its ports filled in `decoded` (kind becomes Tcp or Udp)
   * when they are known, else it is held (kind stays FragmentPending). Returns the packet's kind after that.
   */
  track(decoded: DecodedPacket, packet: CapturedPacket): DecodeKind {
    if (!decoded.isFragment || (decoded.protocol !== TCP && decoded.protocol !== UDP)) return decoded.kind;
    this.advance(packet.tsSec, packet.tsNsec);
    const key = keyOf(decoded);
    let datagram = this.datagrams.get(key);
    if (decoded.fragmentOffset === 0) {
      if (decoded.kind !== DecodeKind.Tcp && decoded.kind !== DecodeKind.Udp) return decoded.kind;
      if (datagram === undefined) datagram = this.insert(key);
      else {
        this.touch(key, datagram);
        if (datagram.known && (datagram.srcPort !== decoded.srcPort || datagram.dstPort !== decoded.dstPort)) {
          this.stats.portsChanged++;
        }
      }
      datagram.known = true;
      datagram.srcPort = decoded.srcPort;
      datagram.dstPort = decoded.dstPort;
      const held = datagram.held;
      if (held !== null) {
        datagram.held = null;
        this.stats.held -= held.length;
        this.stats.resolvedLater += held.length;
        for (const h of held) this.handler.resolved(h, decoded.srcPort, decoded.dstPort);
      }
      return decoded.kind;
    }
    if (datagram === undefined) datagram = this.insert(key);
    else this.touch(key, datagram);
    if (datagram.known) {
      decoded.srcPort = datagram.srcPort;
      decoded.dstPort = datagram.dstPort;
      decoded.kind = decoded.protocol === TCP ? DecodeKind.Tcp : DecodeKind.Udp;
      this.stats.attributed++;
      return decoded.kind;
    }
    const held = this.handler.hold(decoded, packet);
    if (datagram.held === null) datagram.held = [];
    if (datagram.held.length >= this.maxHeld) {
      this.stats.overflow++;
      this.handler.unattributed(held, "overflow");
    } else {
      datagram.held.push(held);
      this.stats.held++;
    }
    return decoded.kind;
  }

  /**
   * Forgets datagrams not seen for more than `timeoutSec` before the capture time `sec` + `nsec`, reporting their
   * held fragments. `track()` calls it; call it for other packets too so that held fragments expire as the capture's
   * time advances.
   */
  advance(sec: number, nsec = 0): void {
    if (sec > this.clockSec || (sec === this.clockSec && nsec > this.clockNsec)) {
      this.clockSec = sec;
      this.clockNsec = nsec;
    }
    if (this.since(this.oldestSec, this.oldestNsec) <= this.timeoutNs) return;
    for (const [key, datagram] of this.datagrams) {
      if (this.since(datagram.lastSec, datagram.lastNsec) <= this.timeoutNs) {
        this.oldestSec = datagram.lastSec;
        this.oldestNsec = datagram.lastNsec;
        return;
      }
      this.datagrams.delete(key);
      this.drop(datagram, "timeout");
    }
    this.oldestSec = Number.POSITIVE_INFINITY;
  }

  /** End of input: every held fragment is reported unattributed and everything is forgotten. */
  flush(): void {
    for (const datagram of this.datagrams.values()) this.drop(datagram, "flush");
    this.datagrams.clear();
    this.oldestSec = Number.POSITIVE_INFINITY;
  }

  /**
   * Nanoseconds from `sec` + `nsec` to the clock: exact while below 2^53 (104 days), far beyond any timeout otherwise;
   * −∞ for the +∞ of no datagram.
   */
  private since(sec: number, nsec: number): number {
    return (this.clockSec - sec) * NS + (this.clockNsec - nsec);
  }

  private insert(key: string): Datagram<T> {
    if (this.datagrams.size >= this.maxDatagrams) {
      const oldest = this.datagrams.keys().next().value as string;
      const evicted = this.datagrams.get(oldest)!;
      this.datagrams.delete(oldest);
      this.stats.evictedDatagrams++;
      this.drop(evicted, "evicted");
    }
    const datagram: Datagram<T> = {
      known: false,
      srcPort: 0,
      dstPort: 0,
      lastSec: this.clockSec,
      lastNsec: this.clockNsec,
      held: null,
    };
    if (this.datagrams.size === 0) {
      this.oldestSec = this.clockSec;
      this.oldestNsec = this.clockNsec;
    }
    this.datagrams.set(key, datagram);
    return datagram;
  }

  private touch(key: string, datagram: Datagram<T>): void {
    datagram.lastSec = this.clockSec;
    datagram.lastNsec = this.clockNsec;
    this.datagrams.delete(key);
    this.datagrams.set(key, datagram);
  }

  private drop(datagram: Datagram<T>, reason: UnattributedReason): void {
    const held = datagram.held;
    if (held === null) return;
    datagram.held = null;
    this.stats.held -= held.length;
    if (reason === "timeout") this.stats.expired += held.length;
    else if (reason === "evicted") this.stats.evicted += held.length;
    else this.stats.flushed += held.length;
    for (const h of held) this.handler.unattributed(h, reason);
  }
}

/** A compact string key of (IP version, protocol, fragment id, source, destination), two bytes per character. */
function keyOf(p: DecodedPacket): string {
  const s = p.src;
  const d = p.dst;
  const id = p.fragmentId;
  if (p.ipVersion === 4) {
    return String.fromCharCode(
      4,
      p.protocol,
      id,
      (s[0] << 8) | s[1],
      (s[2] << 8) | s[3],
      (d[0] << 8) | d[1],
      (d[2] << 8) | d[3],
    );
  }
  let key = String.fromCharCode(6, p.protocol, id >>> 16, id & 0xffff);
  for (let i = 0; i < 16; i += 2) key += String.fromCharCode((s[i] << 8) | s[i + 1], (d[i] << 8) | d[i + 1]);
  return key;
}
