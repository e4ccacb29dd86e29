// TCP close tracking (FIN from both sides, RST, a new SYN reusing the ports of a closed session) and idle expiry
// of many sessions due in the same wheel bucket, some reused or closed meanwhile.
import { describe, expect, it } from "vitest";
import { createDecodedPacket, DecodeKind, TcpFlag } from "../decode/decoded-packet.js";
import { FlowTable } from "./flow-table.js";
import { EndReason } from "./session.js";

const { FIN, SYN, RST, ACK } = TcpFlag;

interface Ended {
  seq: number;
  port: number;
  packets: number;
  reason: string;
}

function table(idleTimeoutNs = 60e9) {
  const ended: Ended[] = [];
  const packets = new Map<number, number>();
  const flows = new FlowTable(
    {
      onStart: () => {},
      onPacket: (session) => packets.set(session.seq, (packets.get(session.seq) ?? 0) + 1),
      onEnd: (session) =>
        ended.push({
          seq: session.seq,
          port: session.fwdPort,
          packets: packets.get(session.seq)!,
          reason: session.endReason,
        }),
    },
    { idleTimeoutNs },
  );
  const decoded = createDecodedPacket();
  Object.assign(decoded, { kind: DecodeKind.Tcp, protocol: 6, ipVersion: 4 });
  let index = 0;
  /** A packet of the connection client:`port` → server:80 (`forward`) or back, at `sec` seconds. */
  const add = (port: number, forward: boolean, flags: number, sec: number) => {
    decoded.src.set(forward ? [10, 0, 0, 1] : [10, 0, 0, 2]);
    decoded.dst.set(forward ? [10, 0, 0, 2] : [10, 0, 0, 1]);
    decoded.srcPort = forward ? port : 80;
    decoded.dstPort = forward ? 80 : port;
    decoded.tcpFlags = flags;
    flows.add(decoded, 1000 + Math.floor(sec), Math.round((sec % 1) * 1e9), 40, index++);
  };
  return { flows, add, ended };
}

describe("FlowTable TCP close tracking", () => {
  it("closes on both sides' FIN or a RST, and starts a new session only for a SYN after the close", () => {
    const { flows, add, ended } = table();
    // 1001: FIN one way only, then data: never closed, ends at the capture's end.
    add(1001, true, SYN, 0);
    add(1001, false, SYN | ACK, 0.1);
    add(1001, true, FIN | ACK, 0.2);
    add(1001, true, FIN | ACK, 0.3);
    add(1001, false, ACK, 0.4);
    // 1002: FIN both ways, the last ACK still counted in the closed session.
    add(1002, true, FIN | ACK, 0);
    add(1002, false, FIN | ACK, 0.1);
    add(1002, true, ACK, 0.2);
    // 1003: RST+ACK from the server.
    add(1003, true, SYN, 0);
    add(1003, false, RST | ACK, 0.1);
    // 1004: FIN both ways, then a SYN on the same ports: a new session; a later SYN-ACK and RST belong to it.
    add(1004, true, FIN | ACK, 0);
    add(1004, false, FIN | ACK, 0.1);
    add(1004, true, SYN, 1);
    add(1004, false, SYN | ACK, 1.1);
    add(1004, false, RST, 1.2);
    // 1005: FIN one way, then a SYN: the session is not closed, so the SYN stays in it.
    add(1005, true, FIN | ACK, 0);
    add(1005, true, SYN, 0.5);
    // 1006: RST, then a SYN-ACK (no new session), then a SYN from the server side (a new one, server forward).
    add(1006, true, RST, 0);
    add(1006, false, SYN | ACK, 0.1);
    add(1006, false, SYN, 0.2);
    // 1007: FIN and RST in one packet.
    add(1007, true, FIN | RST | ACK, 0);
    expect(ended).toEqual([
      { seq: 3, port: 1004, packets: 2, reason: EndReason.Fin },
      { seq: 6, port: 1006, packets: 2, reason: EndReason.Rst },
    ]);
    flows.flush();
    const bySeq = [...ended].sort((a, b) => a.seq - b.seq);
    expect(bySeq).toEqual([
      { seq: 0, port: 1001, packets: 5, reason: EndReason.EndOfCapture },
      { seq: 1, port: 1002, packets: 3, reason: EndReason.Fin },
      { seq: 2, port: 1003, packets: 2, reason: EndReason.Rst },
      { seq: 3, port: 1004, packets: 2, reason: EndReason.Fin },
      { seq: 4, port: 1004, packets: 3, reason: EndReason.Rst },
      { seq: 5, port: 1005, packets: 2, reason: EndReason.EndOfCapture },
      { seq: 6, port: 1006, packets: 2, reason: EndReason.Rst },
      { seq: 7, port: 80, packets: 1, reason: EndReason.EndOfCapture },
      { seq: 8, port: 1007, packets: 1, reason: EndReason.Rst },
    ]);
  });

  it("expires every due session of a crowded bucket once, whatever came between (closes, reuse, later packets)", () => {
    // 1 s idle timeout: buckets of about 1 ms; 300 sessions start within 0.1 ms, in the same bucket.
    const { flows, add, ended } = table(1e9);
    for (let port = 2000; port < 2300; port++) add(port, true, SYN, 0.00001 * (port - 2000) * 0.01);
    // Every third gets a later packet (not due at the first check), every fifth is closed and reopened by a SYN
    // (its old entry is stale, the new session's entry is in a later bucket).
    for (let port = 2000; port < 2300; port += 3) add(port, false, SYN | ACK, 0.5);
    for (let port = 2000; port < 2300; port += 5) {
      add(port, true, RST, 0.6);
      add(port, true, SYN, 0.6);
    }
    const reopened = ended.length;
    expect(reopened).toBe(60);
    // 1.2 s: the sessions whose last packet was at 0 are due; none of the others.
    add(9999, true, SYN, 1.2);
    const first = ended.slice(reopened);
    const dueAtFirst = [];
    for (let port = 2000; port < 2300; port++)
      if ((port - 2000) % 3 !== 0 && (port - 2000) % 5 !== 0) dueAtFirst.push(port);
    expect(first.map((end) => end.port).sort()).toEqual(dueAtFirst);
    expect(first.every((end) => end.reason === EndReason.Idle && end.packets === 1)).toBe(true);
    // 1.7 s: the rest are due (last packets at 0.5 and 0.6), each ended once.
    add(9999, true, ACK, 1.7);
    const all = ended.map((end) => end.seq);
    expect(new Set(all).size).toBe(all.length);
    expect(ended.filter((end) => end.port !== 9999)).toHaveLength(300 + 60);
    flows.flush();
    expect(flows.liveSessions).toBe(0);
  });
});
