// FragmentTracker: in-order, out-of-order, duplicate and overlapping fragments, timeouts, eviction, IPv6.

import { describe, expect, it } from "vitest";
import { capturedPacket, ethernet, fragments, ipv4, type Layer, tcp, udp } from "../testing/index.js";
import { DecodeKind } from "./decoded-packet.js";
import { type FragmentHandler, FragmentTracker, type FragmentTrackerOptions } from "./fragment-tracker.js";
import { PacketDecoder } from "./packet-decoder.js";

interface Held {
  index: number;
  payloadLength: number;
}

/** Runs layers (with their capture times) through a decoder and a tracker, recording everything reported. */
function setup(options: FragmentTrackerOptions = {}) {
  const decoder = new PacketDecoder();
  const resolved: [number, number, number][] = [];
  const unattributed: [number, string][] = [];
  const handler: FragmentHandler<Held> = {
    hold: (decoded, packet) => ({ index: packet.index, payloadLength: decoded.payloadLength }),
    resolved: (held, srcPort, dstPort) => resolved.push([held.index, srcPort, dstPort]),
    unattributed: (held, reason) => unattributed.push([held.index, reason]),
  };
  const tracker = new FragmentTracker(handler, options);
  let index = 0;
  /** Feeds one packet; returns [kind after tracking, srcPort, dstPort]. */
  const feed = (ip: Layer, tsSec = 100, tsNsec = 0) => {
    const packet = capturedPacket(ethernet(ip), { linkType: 1, tsSec, tsNsec, index: index++ });
    const decoded = decoder.decode(packet);
    const kind = tracker.track(decoded, packet);
    expect(kind).toBe(decoded.kind);
    return [kind, decoded.srcPort, decoded.dstPort];
  };
  return { tracker, feed, resolved, unattributed };
}

const v4 = { src: "10.0.0.1", dst: "10.0.0.2" };
const v6 = { src: "2001:db8::1", dst: "2001:db8::2" };
const bigUdp = (srcPort = 5000, dstPort = 53) => udp({ srcPort, dstPort, payload: 3000 });

describe("FragmentTracker", () => {
  it("attributes later fragments in order at once", () => {
    const { tracker, feed, resolved } = setup();
    const [a, b, c] = fragments(v4, bigUdp(), 1480);
    expect(feed(a)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(feed(b)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(feed(c)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(resolved).toEqual([]);
    expect(tracker.stats).toMatchObject({ attributed: 2, resolvedLater: 0, held: 0 });
  });

  it("holds fragments that come before the first and resolves them when it arrives", () => {
    const { tracker, feed, resolved, unattributed } = setup();
    const [a, b, c] = fragments(v4, tcp({ srcPort: 443, dstPort: 51000, payload: 3000 }), 1480);
    expect(feed(c)).toEqual([DecodeKind.FragmentPending, 0, 0]);
    expect(feed(b)).toEqual([DecodeKind.FragmentPending, 0, 0]);
    expect(tracker.stats.held).toBe(2);
    expect(resolved).toEqual([]);
    expect(feed(a)).toEqual([DecodeKind.Tcp, 443, 51000]);
    expect(resolved).toEqual([
      [0, 443, 51000],
      [1, 443, 51000],
    ]);
    expect(unattributed).toEqual([]);
    expect(tracker.stats).toMatchObject({ attributed: 0, resolvedLater: 2, held: 0 });
  });

  it("keeps datagrams apart by id, addresses and protocol", () => {
    const { feed } = setup();
    const one = fragments(v4, bigUdp(1111, 53), 1480, 1);
    const two = fragments(v4, bigUdp(2222, 53), 1480, 2);
    const reversed = fragments({ src: v4.dst, dst: v4.src }, bigUdp(3333, 53), 1480, 1);
    const tcpSameId = fragments(v4, tcp({ srcPort: 4444, dstPort: 80, payload: 3000 }), 1480, 1);
    feed(one[0]);
    feed(two[0]);
    feed(reversed[0]);
    feed(tcpSameId[0]);
    expect(feed(two[1])).toEqual([DecodeKind.Udp, 2222, 53]);
    expect(feed(reversed[1])).toEqual([DecodeKind.Udp, 3333, 53]);
    expect(feed(one[2])).toEqual([DecodeKind.Udp, 1111, 53]);
    expect(feed(tcpSameId[1])).toEqual([DecodeKind.Tcp, 4444, 80]);
  });

  it("attributes duplicate and overlapping fragments, and counts a first fragment that changes the ports", () => {
    const { tracker, feed } = setup();
    const [a, b] = fragments(v4, bigUdp(), 1480, 5);
    const overlapping = fragments(v4, bigUdp(), 1000, 5)[1];
    feed(a);
    expect(feed(b)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(feed(b)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(feed(overlapping)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(feed(a)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(tracker.stats.portsChanged).toBe(0);
    const [reused] = fragments(v4, bigUdp(6000, 53), 1480, 5);
    feed(reused);
    expect(tracker.stats.portsChanged).toBe(1);
    expect(feed(b)).toEqual([DecodeKind.Udp, 6000, 53]);
  });

  it("expires held fragments after the timeout in capture time", () => {
    const { tracker, feed, resolved, unattributed } = setup({ timeoutSec: 30 });
    const [a, b] = fragments(v4, bigUdp(), 1480, 9);
    feed(b, 100);
    tracker.advance(130);
    expect(unattributed).toEqual([]);
    tracker.advance(130, 1);
    expect(unattributed).toEqual([[0, "timeout"]]);
    expect(tracker.size).toBe(0);
    expect(feed(a, 131)).toEqual([DecodeKind.Udp, 5000, 53]);
    expect(resolved).toEqual([]);
    expect(tracker.stats).toMatchObject({ expired: 1, held: 0, resolvedLater: 0 });
  });

  it("expires to the nanosecond at today's epoch times, where seconds in a double are 238 ns apart", () => {
    const { tracker, feed, unattributed } = setup({ timeoutSec: 30 });
    const [, b] = fragments(v4, bigUdp(), 1480, 9);
    feed(b, 1_700_000_000, 999_999_999);
    tracker.advance(1_700_000_030, 999_999_999);
    expect(unattributed).toEqual([]);
    tracker.advance(1_700_000_031, 0);
    expect(unattributed).toEqual([[0, "timeout"]]);
  });

  it("measures the timeout from the datagram's latest fragment, and never lets time go backwards", () => {
    const { tracker, feed, resolved, unattributed } = setup({ timeoutSec: 10 });
    const [a, b, c] = fragments(v4, bigUdp(), 1480, 3);
    feed(c, 100);
    feed(b, 108);
    tracker.advance(50);
    tracker.advance(115);
    expect(unattributed).toEqual([]);
    feed(a, 117);
    expect(resolved.map((r) => r[0])).toEqual([0, 1]);
  });

  it("forgets attributed datagrams after the timeout too", () => {
    const { tracker, feed } = setup({ timeoutSec: 5 });
    const [a, b] = fragments(v4, bigUdp(), 1480, 3);
    feed(a, 0);
    expect(tracker.size).toBe(1);
    expect(feed(b, 6)).toEqual([DecodeKind.FragmentPending, 0, 0]);
  });

  it("evicts the least recently seen datagram beyond maxDatagrams and reports its held fragments", () => {
    const { tracker, feed, unattributed } = setup({ maxDatagrams: 2 });
    const d1 = fragments(v4, bigUdp(1, 1), 1480, 1);
    const d2 = fragments(v4, bigUdp(2, 2), 1480, 2);
    const d3 = fragments(v4, bigUdp(3, 3), 1480, 3);
    feed(d1[1]);
    feed(d2[1]);
    feed(d1[2]);
    feed(d3[1]);
    expect(unattributed).toEqual([[1, "evicted"]]);
    expect(tracker.size).toBe(2);
    expect(feed(d1[0])).toEqual([DecodeKind.Udp, 1, 1]);
    expect(tracker.stats).toMatchObject({ evictedDatagrams: 1, evicted: 1, resolvedLater: 2 });
  });

  it("drops held fragments beyond maxHeldPerDatagram at once", () => {
    const { tracker, feed, resolved, unattributed } = setup({ maxHeldPerDatagram: 2 });
    const parts = fragments(v4, udp({ srcPort: 7, dstPort: 8, payload: 400 }), 96, 4);
    feed(parts[1]);
    feed(parts[2]);
    feed(parts[3]);
    expect(unattributed).toEqual([[2, "overflow"]]);
    feed(parts[0]);
    expect(resolved.map((r) => r[0])).toEqual([0, 1]);
    expect(tracker.stats).toMatchObject({ overflow: 1, resolvedLater: 2, held: 0 });
  });

  it("reports every held fragment on flush", () => {
    const { tracker, feed, unattributed } = setup();
    feed(fragments(v4, bigUdp(), 1480, 1)[1]);
    feed(fragments(v6, bigUdp(), 1480, 1)[2]);
    tracker.flush();
    expect(unattributed).toEqual([
      [0, "flush"],
      [1, "flush"],
    ]);
    expect(tracker.stats).toMatchObject({ flushed: 2, held: 0 });
    expect(tracker.size).toBe(0);
  });

  it("tracks IPv6 fragments by their 32-bit identification", () => {
    const { feed, resolved } = setup();
    const x = fragments(v6, tcp({ srcPort: 8080, dstPort: 40000, payload: 3000 }), 1280, 0x10000);
    const y = fragments(v6, tcp({ srcPort: 9090, dstPort: 40001, payload: 3000 }), 1280, 0x20000);
    expect(feed(y[2])).toEqual([DecodeKind.FragmentPending, 0, 0]);
    feed(x[0]);
    expect(feed(x[1])).toEqual([DecodeKind.Tcp, 8080, 40000]);
    expect(resolved).toEqual([]);
    feed(y[0]);
    expect(resolved).toEqual([[0, 9090, 40001]]);
  });

  it("ignores non-fragments and fragments of other protocols", () => {
    const { tracker, feed } = setup();
    expect(feed(ipv4(v4, udp({ srcPort: 1, dstPort: 2 })))).toEqual([DecodeKind.Udp, 1, 2]);
    feed(fragments(v4, { type: 1, bytes: new Uint8Array(3000) }, 1480)[1]);
    expect(tracker.size).toBe(0);
  });

  it("reports every held fragment exactly once, with its own datagram's ports, under shuffling and eviction", () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    for (const maxDatagrams of [4, 1000]) {
      const { tracker, feed, resolved, unattributed } = setup({ maxDatagrams });
      const portsOf = new Map<number, number>();
      const packets: { ip: Layer; port: number }[] = [];
      for (let n = 0; n < 200; n++) {
        const port = 1000 + n;
        const ip = n % 2 === 0 ? v4 : v6;
        for (const f of fragments(ip, udp({ srcPort: port, dstPort: 53, payload: 600 }), 200, n)) {
          packets.push({ ip: f, port });
        }
      }
      // Local shuffles: each fragment moves up to ~8 places, as reordering on a network does.
      for (let i = 0; i < packets.length; i++) {
        const j = Math.min(packets.length - 1, i + Math.floor(random() * 8));
        [packets[i], packets[j]] = [packets[j], packets[i]];
      }
      packets.forEach(({ ip, port }, index) => {
        portsOf.set(index, port);
        const [kind, srcPort] = feed(ip);
        if (kind !== DecodeKind.FragmentPending) expect(srcPort).toBe(port);
      });
      tracker.flush();
      const reported = [...resolved.map((r) => r[0]), ...unattributed.map((u) => u[0])].sort((a, b) => a - b);
      expect(new Set(reported).size).toBe(reported.length);
      for (const [index, srcPort] of resolved) expect(srcPort).toBe(portsOf.get(index));
      expect(tracker.stats.held).toBe(0);
      const pending =
        tracker.stats.resolvedLater + tracker.stats.evicted + tracker.stats.flushed + tracker.stats.overflow;
      expect(reported.length).toBe(pending);
      if (maxDatagrams === 1000) {
        expect(unattributed).toEqual([]);
        expect(resolved.length).toBeGreaterThan(50);
      } else {
        expect(tracker.stats.evicted).toBeGreaterThan(0);
      }
    }
  });
});
