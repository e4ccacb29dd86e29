// AttackSessions' quick way for Ethernet IPv4 frames against the decoder's way, on well-formed, cut, fragmented and
// malformed frames: it answers as isAttack does, or leaves the frame to the decoder.
import { PacketDecoder, PacketRecord } from "@tracemill/core";
import { expect, it } from "vitest";
import { AttackSessions } from "./attack-sessions.js";
import { NO_VLAN } from "./vlan-key.js";

const A = [10, 0, 0, 1];
const B = [10, 0, 0, 2];

/** An Ethernet frame with an IPv4 header of `ihl` words, then `transport` bytes (ports 1000 → 80). */
function frame(protocol: number, options: { ihl?: number; total?: number; flags?: number; tcpWords?: number } = {}) {
  const ihl = options.ihl ?? 5;
  const transport = protocol === 6 ? 4 * (options.tcpWords ?? 5) : 8;
  const bytes = new Uint8Array(14 + 4 * ihl + transport + 6);
  bytes[12] = 0x08;
  const ip = 14;
  bytes[ip] = 0x40 | ihl;
  const total = options.total ?? 4 * ihl + transport + 6;
  bytes[ip + 2] = total >> 8;
  bytes[ip + 3] = total & 0xff;
  bytes[ip + 6] = (options.flags ?? 0) >> 8;
  bytes[ip + 7] = (options.flags ?? 0) & 0xff;
  bytes[ip + 9] = protocol;
  bytes.set(A, ip + 12);
  bytes.set(B, ip + 16);
  const t = ip + 4 * ihl;
  bytes[t] = 1000 >> 8;
  bytes[t + 1] = 1000 & 0xff;
  bytes[t + 3] = 80;
  if (protocol === 6) bytes[t + 12] = (options.tcpWords ?? 5) << 4;
  return bytes;
}

it("answers as the decoder's way or leaves the frame to it", () => {
  const sessions = new AttackSessions();
  const flow = {
    src: new Uint8Array(B),
    srcPort: 80,
    dst: new Uint8Array(A),
    dstPort: 1000,
    vlan: NO_VLAN,
    startUs: 100,
    endUs: 200,
  };
  sessions.addFlow({ protocol: 6, ...flow });
  sessions.addFlow({ protocol: 17, ...flow });
  sessions.addPacketNumber(5);
  const frames = [
    frame(6),
    frame(17),
    frame(6, { ihl: 7 }),
    frame(6, { total: 0 }),
    frame(6, { total: 30 }),
    frame(6, { total: 12 }),
    frame(6, { flags: 0x2000 }),
    frame(6, { flags: 0x0003 }),
    frame(6, { flags: 0x4000 }),
    frame(6, { tcpWords: 4 }),
    frame(6, { tcpWords: 15 }),
    frame(17, { total: 24 }),
    frame(1),
  ];
  // Each frame whole and cut short, at times inside and outside the session, as packet 5 (alerted) and 6.
  const decoder = new PacketDecoder();
  const quick = { true: 0, false: 0 };
  let attacks = 0;
  for (const bytes of frames) {
    for (const cut of [bytes.length, 40, 36, 30]) {
      for (const tsUs of [50, 150]) {
        for (const index of [4, 5]) {
          const record = new PacketRecord();
          record.linkType = 1;
          record.originalLength = bytes.length;
          record.index = index;
          record.setBytes(bytes, 0, Math.min(cut, bytes.length));
          const expected = sessions.isAttack(decoder.decode(record), index, tsUs);
          const answer = sessions.isAttackEthernetIpv4(bytes, 0, record.capturedLength, index, tsUs);
          if (answer !== undefined) {
            quick[answer ? "true" : "false"]++;
            expect([bytes, cut, tsUs, index, answer]).toEqual([bytes, cut, tsUs, index, expected]);
          }
          if (expected) attacks++;
        }
      }
    }
  }
  // Whole frames of a plain header, with options, with "don't fragment", with TCP options: in and out of the session.
  expect(quick).toEqual({ true: 15, false: 5 });
  expect(attacks).toBeGreaterThan(30);
});
