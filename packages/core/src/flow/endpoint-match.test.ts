// Matching a packet to its session by endpoints (IPv4 compares two address words, IPv6 all eight) and the gap the
// flow table hands to the hooks with each packet.
import { expect, it } from "vitest";
import { createDecodedPacket, type DecodedPacket, DecodeKind } from "../decode/decoded-packet.js";
import { FlowTable } from "./flow-table.js";

const NS = 1e9;

function udp(src: number[], dst: number[], ports: [number, number]): DecodedPacket {
  const d = createDecodedPacket();
  d.kind = DecodeKind.Udp;
  d.protocol = 17;
  d.ipVersion = src.length === 16 ? 6 : 4;
  d.src.set(src);
  d.dst.set(dst);
  d.srcPort = ports[0];
  d.dstPort = ports[1];
  return d;
}

/** An IPv6 address 2001:db8::/32 whose byte `at` is `value` (the rest 0). */
function v6(at: number, value: number): number[] {
  const bytes = [0x20, 1, 0xd, 0xb8, ...new Array(12).fill(0)];
  bytes[at] = value;
  return bytes;
}

it("keeps apart endpoints that differ only past an IPv6 address's first word, and IPv4 with the same first word", () => {
  const seen: { seq: number; forward: boolean }[] = [];
  const table = new FlowTable({
    onStart: () => {},
    onPacket: (session, packet) => seen.push({ seq: session.seq, forward: packet.forward }),
    onEnd: () => {},
  });
  const ipv4 = [0x20, 1, 0xd, 0xb8];
  const pairs: [number[], number[]][] = [
    [v6(5, 1), v6(15, 2)],
    [v6(9, 1), v6(15, 2)],
    [v6(13, 1), v6(15, 2)],
    [v6(5, 1), v6(10, 2)],
    [ipv4, [0x20, 1, 0xd, 0xb9]],
  ];
  let time = 0;
  for (const [a, b] of pairs) table.add(udp(a, b, [5000, 53]), 1, time++, 60, 0);
  for (const [a, b] of pairs) table.add(udp(b, a, [53, 5000]), 1, time++, 60, 0);
  for (const [a, b] of pairs) table.add(udp(a, b, [5000, 53]), 1, time++, 60, 0);
  expect(table.liveSessions).toBe(pairs.length);
  const n = pairs.length;
  expect(seen.map((s) => s.seq)).toEqual([...Array(3)].flatMap(() => [...Array(n).keys()]));
  expect(seen.map((s) => s.forward)).toEqual([
    ...new Array(n).fill(true),
    ...new Array(n).fill(false),
    ...new Array(n).fill(true),
  ]);
});

it("hands each packet the time since its session's previous packet, either way, and -1 for a session's first", () => {
  const gaps: number[] = [];
  const table = new FlowTable(
    { onStart: () => {}, onPacket: (_session, packet) => gaps.push(packet.gap), onEnd: () => {} },
    { idleTimeoutNs: 10 * NS },
  );
  const a = [10, 0, 0, 1];
  const b = [10, 0, 0, 2];
  table.add(udp(a, b, [1, 2]), 100, 0, 60, 0);
  table.add(udp(b, a, [2, 1]), 100, 250, 60, 1);
  table.add(udp(a, [10, 0, 0, 3], [1, 2]), 101, 0, 60, 2);
  table.add(udp(a, b, [1, 2]), 103, 500, 60, 3);
  // Idle for longer than the timeout: the same endpoints start a new session.
  table.add(udp(b, a, [2, 1]), 120, 0, 60, 4);
  table.add(udp(a, b, [1, 2]), 120, 7, 60, 5);
  expect(gaps).toEqual([-1, 250, -1, 3 * NS + 250, -1, 7]);
});
