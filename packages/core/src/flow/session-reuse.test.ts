// A reused session record (the flow table reuses them) shows only its new session's fields: close state, counts,
// times, ports, addresses and IP version are all those of the session that now holds it. The hooks see one view.
import { expect, it } from "vitest";
import { createDecodedPacket, type DecodedPacket, DecodeKind, TcpFlag } from "../decode/decoded-packet.js";
import { FlowTable } from "./flow-table.js";
import { EndReason, type Session } from "./session.js";

const NS = 1e9;

function snapshot(s: Session) {
  const version = s.ipVersion;
  return {
    seq: s.seq,
    protocol: s.protocol,
    ipVersion: version,
    fwd: [...s.address(true, new Uint8Array(version === 6 ? 16 : 4))],
    bwd: [...s.address(false, new Uint8Array(version === 6 ? 16 : 4))],
    ports: [s.fwdPort, s.bwdPort],
    packets: [s.fwdPackets, s.bwdPackets],
    bytes: [s.fwdBytes, s.bwdBytes],
    close: [s.finFwd, s.finBwd, s.closed],
    times: [s.baseSec, s.firstTime, s.lastTime],
    firstIndex: s.firstIndex,
    endReason: s.endReason,
  };
}

function packet(v6: boolean, protocol: 6 | 17, src: number, dst: number, ports: [number, number], flags = 0) {
  const d: DecodedPacket = createDecodedPacket();
  d.kind = protocol === 6 ? DecodeKind.Tcp : DecodeKind.Udp;
  d.protocol = protocol;
  d.ipVersion = v6 ? 6 : 4;
  const address = (last: number) => (v6 ? [0x20, 1, 0xd, 0xb8, ...new Array(11).fill(7), last] : [10, 0, 0, last]);
  d.src.set(address(src));
  d.dst.set(address(dst));
  d.srcPort = ports[0];
  d.dstPort = ports[1];
  d.tcpFlags = flags;
  return d;
}

it("a pooled record shows none of the previous session's values", () => {
  const starts: ReturnType<typeof snapshot>[] = [];
  const ends: ReturnType<typeof snapshot>[] = [];
  const slots: number[] = [];
  const table = new FlowTable(
    {
      onStart: (s) => {
        starts.push(snapshot(s));
        slots.push(s.slot);
      },
      onPacket: () => {},
      onEnd: (s) => ends.push(snapshot(s)),
    },
    { idleTimeoutNs: 10 * NS, activeTimeoutNs: 1000 * NS },
  );
  const { SYN, ACK, FIN } = TcpFlag;
  // An IPv6 TCP session closed by both FINs, then a new SYN on the same ports: the closed record ends and is reused.
  table.add(packet(true, 6, 1, 2, [40000, 80], SYN), 100, 0, 80, 0);
  table.add(packet(true, 6, 2, 1, [80, 40000], SYN | ACK), 100, 1000, 70, 1);
  table.add(packet(true, 6, 1, 2, [40000, 80], FIN | ACK), 101, 0, 60, 2);
  table.add(packet(true, 6, 2, 1, [80, 40000], FIN | ACK), 101, 500, 60, 3);
  table.add(packet(true, 6, 1, 2, [40000, 80], SYN), 102, 0, 90, 4);
  // Idle long enough to end that one; an IPv4 UDP session then takes the record, first packet as a SYN-ACK would not.
  table.add(packet(false, 17, 9, 8, [5353, 53]), 200, 0, 40, 5);
  table.flush();
  expect(new Set(slots).size).toBe(1);
  expect(ends.map((e) => [e.seq, e.endReason])).toEqual([
    [0, "fin"],
    [1, "idle"],
    [2, "end-of-capture"],
  ]);
  const second = ends[1];
  expect(second).toMatchObject({
    protocol: 6,
    ipVersion: 6,
    ports: [40000, 80],
    packets: [1, 0],
    bytes: [90, 0],
    close: [false, false, false],
    times: [102, 0, 0],
    firstIndex: 4,
  });
  expect(ends[2]).toEqual({
    seq: 2,
    protocol: 17,
    ipVersion: 4,
    fwd: [10, 0, 0, 9],
    bwd: [10, 0, 0, 8],
    ports: [5353, 53],
    packets: [1, 0],
    bytes: [40, 0],
    close: [false, false, false],
    times: [200, 0, 0],
    firstIndex: 5,
    endReason: "end-of-capture",
  });
  // At its start a session has no packet counted yet and the default end reason.
  expect(starts.map((s) => [s.packets, s.bytes, s.close, s.endReason])).toEqual(
    Array.from({ length: 3 }, () => [[0, 0], [0, 0], [false, false, false], "end-of-capture"]),
  );
});

it("hands every hook the one view, pointed at the call's record, whose end reason an owner may set", () => {
  const views = new Set<Session>();
  const seen: [string, number, number][] = [];
  const reasons = Object.values(EndReason);
  const table = new FlowTable({
    onStart: (s, p) => {
      views.add(s);
      seen.push(["start", s.slot, p.slot]);
    },
    onPacket: (s, p) => {
      views.add(s);
      seen.push(["packet", s.slot, p.slot]);
    },
    onEnd: (s) => {
      views.add(s);
      seen.push(["end", s.slot, s.seq]);
      // Every reason is kept apart from the record's key: protocol, version and close bits stay as they were.
      const [protocol, version, closed] = [s.protocol, s.ipVersion, s.closed];
      for (const reason of reasons) {
        s.endReason = reason;
        expect([s.endReason, s.protocol, s.ipVersion, s.closed]).toEqual([reason, protocol, version, closed]);
      }
    },
  });
  for (let i = 0; i < 3; i++) table.add(packet(i === 1, 17, i, 100, [1000 + i, 53]), 100, i, 40, i);
  table.add(packet(false, 17, 0, 100, [1000, 53]), 100, 9, 40, 3);
  table.flush();
  expect(views.size).toBe(1);
  expect(seen).toEqual([
    ["start", 0, 0],
    ["packet", 0, 0],
    ["start", 1, 1],
    ["packet", 1, 1],
    ["start", 2, 2],
    ["packet", 2, 2],
    ["packet", 0, 0],
    ["end", 0, 0],
    ["end", 1, 1],
    ["end", 2, 2],
  ]);
});
