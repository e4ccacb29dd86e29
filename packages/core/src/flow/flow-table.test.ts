// The flow table against a plain reference model: same sessions for thousands of interleaved conversations,
// expiry as time advances, and bounded live sessions.
import { describe, expect, it } from "vitest";
import { createDecodedPacket, DecodeKind, TcpFlag } from "../decode/decoded-packet.js";
import { isTracemillError } from "../errors.js";
import { FlowTable } from "./flow-table.js";
import { MAX_ACTIVE_TIMEOUT_SEC, MAX_IDLE_TIMEOUT_SEC } from "./flow-table-options.js";
import { EndReason, type Session } from "./session.js";

const NS = 1e9;

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("FlowTable", () => {
  it("groups interleaved packets of thousands of conversations exactly like a reference model", () => {
    const next = random(42);
    const idle = 5 * NS;
    const active = 40 * NS;
    const ended: { seq: number; packets: number; reason: string }[] = [];
    const packetsOf = new Map<number, number>();
    let maxLive = 0;
    // The owner words hold values set at the start and checked on every packet and at the end: the table never
    // writes them, and writing them never changes the table's counters.
    let ownerWordsChanged = 0;
    const owned = (session: Session) =>
      session.ownerWord0 === -1 - session.seq && session.ownerWord1 === (session.seq ^ 0x5a5a5a5a);
    const table = new FlowTable(
      {
        onStart: (session) => {
          session.ownerWord0 = -1 - session.seq;
          session.ownerWord1 = session.seq ^ 0x5a5a5a5a;
        },
        onPacket: (session) => {
          if (!owned(session)) ownerWordsChanged++;
          packetsOf.set(session.seq, (packetsOf.get(session.seq) ?? 0) + 1);
        },
        onEnd: (session) => {
          if (!owned(session)) ownerWordsChanged++;
          const packets = session.fwdPackets + session.bwdPackets;
          expect(packets).toBe(packetsOf.get(session.seq));
          expect(session.fwdBytes + session.bwdBytes).toBe(100 * packets);
          ended.push({ seq: session.seq, packets: packetsOf.get(session.seq)!, reason: session.endReason });
        },
      },
      { idleTimeoutNs: idle, activeTimeoutNs: active },
    );
    // Reference: key → {seq, first, last, packets}; keys are unordered endpoint pairs.
    const reference = new Map<string, { seq: number; first: number; last: number; packets: number }>();
    const expected: { seq: number; packets: number; reason: string }[] = [];
    let seq = 0;
    const decoded = createDecodedPacket();
    decoded.kind = DecodeKind.Udp;
    decoded.protocol = 17;
    decoded.ipVersion = 4;
    let time = 0;
    for (let i = 0; i < 60_000; i++) {
      time += Math.floor(next() * 2_000_000);
      const host = Math.floor(next() * 3000);
      const reverse = next() < 0.5;
      const a = [10, 0, host >> 8, host & 255];
      const b = [10, 1, 0, 1 + (host % 3)];
      decoded.src.set(reverse ? b : a);
      decoded.dst.set(reverse ? a : b);
      decoded.srcPort = reverse ? 53 : 1024 + (host % 7);
      decoded.dstPort = reverse ? 1024 + (host % 7) : 53;
      // The reference map is kept in last-packet order (re-inserted on every packet), so expiry stops early.
      for (const [key, entry] of reference) {
        if (entry.last >= time - idle) break;
        expected.push({ seq: entry.seq, packets: entry.packets, reason: EndReason.Idle });
        reference.delete(key);
      }
      const key = `${host}`;
      let entry = reference.get(key);
      if (entry && time - entry.first > active) {
        expected.push({ seq: entry.seq, packets: entry.packets, reason: EndReason.Active });
        entry = undefined;
      }
      if (!entry) {
        entry = { seq: seq++, first: time, last: time, packets: 0 };
        reference.set(key, entry);
      }
      entry.last = time;
      entry.packets++;
      reference.delete(key);
      reference.set(key, entry);
      table.add(decoded, Math.floor(time / NS), time % NS, 100, i);
      maxLive = Math.max(maxLive, table.liveSessions);
    }
    for (const entry of [...reference.values()].sort((x, y) => x.last - y.last)) {
      expected.push({ seq: entry.seq, packets: entry.packets, reason: EndReason.EndOfCapture });
    }
    table.flush();
    const bySeq = (x: { seq: number }, y: { seq: number }) => x.seq - y.seq;
    expect(new Set(expected.map((end) => end.reason))).toEqual(
      new Set([EndReason.Idle, EndReason.Active, EndReason.EndOfCapture]),
    );
    expect(ended.sort(bySeq)).toEqual(expected.sort(bySeq));
    expect(table.liveSessions).toBe(0);
    expect(maxLive).toBeLessThan(3000);
    expect(ownerWordsChanged).toBe(0);
  });

  // The store adds a chunk every 4096 records: 10 000 sessions live at once span three chunks.
  it("keeps every record's fields apart across store chunks under 10 000 live sessions", () => {
    const count = 10_000;
    const ended: string[] = [];
    const table = new FlowTable({
      onStart: () => {},
      onPacket: () => {},
      onEnd: (session) =>
        ended.push(
          [
            session.seq,
            session.ipv4(true),
            session.fwdPort,
            session.fwdBytes,
            session.bwdBytes,
            session.lastTime,
          ].join(),
        ),
    });
    const decoded = createDecodedPacket();
    Object.assign(decoded, { kind: DecodeKind.Udp, protocol: 17, ipVersion: 4 });
    const server = [10, 1, 0, 1];
    const send = (i: number, backward: boolean, nsec: number, length: number, index: number) => {
      const client = [10, 0, i >> 8, i & 255];
      decoded.src.set(backward ? server : client);
      decoded.dst.set(backward ? client : server);
      decoded.srcPort = backward ? 53 : 1024 + i;
      decoded.dstPort = backward ? 1024 + i : 53;
      table.add(decoded, backward ? 1001 : 1000, nsec, length, index);
    };
    for (let i = 0; i < count; i++) send(i, false, i, 100 + (i % 50), i);
    expect(table.liveSessions).toBe(count);
    // Second packets from the other side, last session first.
    for (let i = count - 1; i >= 0; i--) send(i, true, count - i, 7 * i, 2 * count - i);
    table.flush();
    expect(ended.sort((x, y) => Number(x.split(",")[0]) - Number(y.split(",")[0]))).toEqual(
      Array.from({ length: count }, (_, i) =>
        [i, (10 << 24) | ((i >> 8) << 8) | (i & 255), 1024 + i, 100 + (i % 50), 7 * i, 1e9 + count - i].join(),
      ),
    );
  });

  it("ends idle sessions while the capture goes on, not only at its end", () => {
    const ends: number[] = [];
    const table = new FlowTable({
      onStart: () => {},
      onPacket: () => {},
      onEnd: (session) => ends.push(session.seq),
    });
    const decoded = createDecodedPacket();
    Object.assign(decoded, { kind: DecodeKind.Tcp, protocol: 6, ipVersion: 4, tcpFlags: TcpFlag.ACK });
    decoded.src.set([1, 1, 1, 1]);
    decoded.dst.set([2, 2, 2, 2]);
    for (let i = 0; i < 100; i++) {
      decoded.srcPort = 1000 + i;
      decoded.dstPort = 80;
      table.add(decoded, 1000 + i * 200, 0, 40, i);
      expect(table.liveSessions).toBe(1);
    }
    expect(ends.length).toBe(99);
  });

  it("notices an idle session within a thousandth of the idle timeout", () => {
    const ends: number[] = [];
    const table = new FlowTable({
      onStart: () => {},
      onPacket: () => {},
      onEnd: (session) => ends.push(session.seq),
    });
    const decoded = createDecodedPacket();
    Object.assign(decoded, { kind: DecodeKind.Udp, protocol: 17, ipVersion: 4, srcPort: 1, dstPort: 2 });
    decoded.src.set([1, 1, 1, 1]);
    decoded.dst.set([2, 2, 2, 2]);
    table.add(decoded, 1000, 0, 40, 0);
    decoded.srcPort = 3;
    table.add(decoded, 1120, 0, 40, 1);
    expect(ends).toEqual([]);
    table.add(decoded, 1120, 200_000_000, 40, 2);
    expect(ends).toEqual([0]);
  });

  it("rejects a timeout that is not a positive number, or beyond the limit that keeps times exact", () => {
    const hooks = { onStart() {}, onPacket() {}, onEnd() {} };
    for (const options of [
      { idleTimeoutNs: 0 },
      { activeTimeoutNs: -1 },
      { idleTimeoutNs: Number.NaN },
      { idleTimeoutNs: (MAX_IDLE_TIMEOUT_SEC + 1) * NS },
      { activeTimeoutNs: (MAX_ACTIVE_TIMEOUT_SEC + 1) * NS },
    ]) {
      try {
        new FlowTable(hooks, options);
        expect.unreachable();
      } catch (error) {
        expect(isTracemillError(error) && error.code).toBe("BAD_OPTION");
      }
    }
    // Both limits at once: idle + active + 1 s stays below 2^53 ns.
    new FlowTable(hooks, { idleTimeoutNs: MAX_IDLE_TIMEOUT_SEC * NS, activeTimeoutNs: MAX_ACTIVE_TIMEOUT_SEC * NS });
    expect((MAX_IDLE_TIMEOUT_SEC + MAX_ACTIVE_TIMEOUT_SEC + 1) * NS).toBeLessThan(2 ** 53);
  });
});
