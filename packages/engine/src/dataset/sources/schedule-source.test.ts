// Schedule labels end to end: a synthetic capture through the session pass with the schedule source as its hooks,
// each session's class, fraction and window checked against values worked out by hand from the packets' times.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CapturedPacket, compileSchedule, type ScheduleWindowSpec, type Session } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, ipv6, pcapFile, tcp, udp } from "../../../../core/src/testing/index.js";
import { runSessionPass, type SessionHooks } from "../../pass/session-pass.js";
import type { SourceMatch } from "./label-source.js";
import { ScheduleSource } from "./schedule-source.js";

const SYN = 0x02;
const ACK = 0x10;
const RST = 0x04;

/** 2017-07-04 12:20:00 UTC, 09:20 in Halifax (ADT, UTC-3): the FTP window's first instant. */
const T0 = Date.UTC(2017, 6, 4, 12, 20) / 1000;

const WINDOWS: ScheduleWindowSpec[] = [
  {
    id: "ftp", // 12:20:00Z to 12:30:00Z
    class: "FTP-Patator",
    start: "2017-07-04 09:20",
    end: "2017-07-04 09:29",
    attackers: ["172.16.0.1"],
    victims: ["192.168.10.50"],
    ports: [21],
    protocol: "tcp",
    attempted: true,
  },
  {
    id: "scan", // 12:30:00Z to 12:40:00Z
    class: "PortScan",
    start: "2017-07-04 09:30",
    end: "2017-07-04 09:39",
    attackers: ["172.16.0.0/24"],
    victims: ["192.168.10.0/24"],
  },
  {
    id: "bot", // 13:00:00Z to 13:10:00Z
    class: "Bot",
    start: "2017-07-04 10:00",
    end: "2017-07-04 10:09",
    attackers: ["205.174.165.73"],
    victims: ["192.168.10.15"],
    attempted: true,
  },
  {
    id: "v6", // 12:00:00Z to 13:00:00Z
    class: "v6 flood",
    start: "2017-07-04 09:00",
    end: "2017-07-04 09:59",
    timezone: "-03:00",
    attackers: ["2001:db8::/64"],
    victims: ["2001:db8:1::10"],
    protocol: "udp",
    attempted: true,
  },
  {
    id: "unused",
    class: "Heartbleed",
    start: "2017-07-04 15:12",
    end: "2017-07-04 15:32",
    attackers: ["205.174.165.73", "172.16.0.1"],
    victims: ["192.168.10.51"],
    ports: [444],
  },
];

const ATTACKER = "172.16.0.1";
const VICTIM = "192.168.10.50";

/** A TCP packet `seconds` after T0 (to the microsecond), with `payload` bytes. */
function tcpAt(seconds: number, src: string, srcPort: number, dst: string, dstPort: number, payload = 0, flags = ACK) {
  return packetAt(seconds, ethernet(ipv4({ src, dst }, tcp({ srcPort, dstPort, flags, payload }))));
}

function udpAt(seconds: number, src: string, srcPort: number, dst: string, dstPort: number) {
  const layer = src.includes(":")
    ? ipv6({ src, dst }, udp({ srcPort, dstPort }))
    : ipv4({ src, dst }, udp({ srcPort, dstPort }));
  return packetAt(seconds, ethernet(layer));
}

function packetAt(seconds: number, frame: Uint8Array): CapturedPacket {
  const micro = Math.round(seconds * 1e6);
  const sec = Math.floor(micro / 1e6);
  return capturedPacket(frame, { linkType: 1, tsSec: T0 + sec, tsNsec: (micro - sec * 1e6) * 1000 });
}

/** Attacker to victim (`out`) and back, on the attacker's port `port` and the victim's port 21. */
const out = (seconds: number, port: number, payload = 0, flags = ACK) =>
  tcpAt(seconds, ATTACKER, port, VICTIM, 21, payload, flags);
const back = (seconds: number, port: number, payload = 0, flags = ACK) =>
  tcpAt(seconds, VICTIM, 21, ATTACKER, port, payload, flags);

const packets: CapturedPacket[] = [
  // 40000: a login attempt inside the FTP window, payload both ways.
  out(10, 40000, 0, SYN),
  back(10.1, 40000, 0, SYN | ACK),
  out(10.2, 40000),
  out(11, 40000, 20),
  back(12, 40000, 30),
  // 40001: the server's banner, then a reset: the attacker sent nothing.
  out(20, 40001, 0, SYN),
  back(20.1, 40001, 0, SYN | ACK),
  out(20.2, 40001),
  back(21, 40001, 40),
  out(22, 40001, 0, RST),
  // 40002: two packets in the FTP window (12:29:58, :59), three in the scan window (12:30:00, :01, :02).
  out(598, 40002, 10),
  back(599, 40002),
  out(600, 40002),
  back(601, 40002),
  out(602, 40002),
  // 40003: one packet in each: a tie, which the earlier window (FTP) takes.
  out(599.5, 40003, 10),
  back(600.5, 40003),
  // 40004: port 22 inside the FTP window, before the scan window: no window.
  tcpAt(30, ATTACKER, 40004, VICTIM, 22, 10),
  // 40005: the victim opens it (a reverse connection) and sends; the attacker, the backward side, sends nothing.
  back(40, 40005, 50),
  out(41, 40005),
  back(42, 40005, 50),
  // 40006: 12:19:59 (before the window), 12:20:00 (its first instant), 12:20:01.
  out(-1, 40006, 5),
  back(0, 40006),
  out(1, 40006),
  // 40007: 12:39:59.999999 (the scan window's last microsecond) and 12:40:00 (past its end).
  out(1199.999999, 40007, 5),
  back(1200, 40007),
  // 40008: 12:18:00 and 12:19:00, near the FTP window but before it: no packet inside, no label.
  out(-120, 40008, 5),
  back(-60, 40008),
  // UDP to port 21 in the FTP window, which is TCP only.
  udpAt(50, ATTACKER, 5000, VICTIM, 21),
  // Bots call their controller: 49000 gets an answer, 49001 does not (the attacker's side sent no payload).
  tcpAt(2700, "192.168.10.15", 49000, "205.174.165.73", 8080, 100),
  tcpAt(2700.1, "205.174.165.73", 8080, "192.168.10.15", 49000, 20),
  tcpAt(2700.2, "192.168.10.15", 49000, "205.174.165.73", 8080),
  tcpAt(2710, "192.168.10.15", 49001, "205.174.165.73", 8080, 100),
  tcpAt(2710.1, "205.174.165.73", 8080, "192.168.10.15", 49001),
  // Unrelated hosts.
  tcpAt(5, "10.0.0.1", 1000, "10.0.0.2", 80, 10),
  // IPv6 over UDP without payload: UDP sessions are never attempts.
  udpAt(100, "2001:db8::5", 3333, "2001:db8:1::10", 53),
  udpAt(101, "2001:db8::5", 3333, "2001:db8:1::10", 53),
].sort((a, b) => a.tsSec - b.tsSec || a.tsNsec - b.tsNsec);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-schedule-source-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs the capture through the pass with the source as its hooks; each session's match by "fwdPort-bwdPort". */
async function labelled(
  source: ScheduleSource,
  capturePackets: CapturedPacket[] = packets,
): Promise<Map<string, SourceMatch | null>> {
  const capture = path.join(scratch, "capture.pcap");
  fs.writeFileSync(capture, pcapFile(capturePackets));
  const matches = new Map<string, SourceMatch | null>();
  const hooks: SessionHooks<null> = {
    createState: () => null,
    onStart() {},
    onPacket: (session, packet) => source.onPacket(session, packet),
    onEnd(_state, session: Session) {
      const match = source.match(session);
      matches.set(`${session.fwdPort}-${session.bwdPort}`, match === null ? null : { ...match });
    },
  };
  await runSessionPass(capture, path.join(scratch, "rows.csv"), [], hooks, { digest: false }, {});
  return matches;
}

describe("ScheduleSource", () => {
  it("labels each session by the window holding most of its packets", async () => {
    const source = new ScheduleSource(compileSchedule({ timezone: "America/Halifax", windows: WINDOWS }));
    const matches = await labelled(source);
    expect(Object.fromEntries(matches)).toEqual({
      "40000-21": { className: "FTP-Patator", fraction: 1, rule: "ftp" },
      "40001-21": { className: "FTP-Patator - Attempted", fraction: 1, rule: "ftp" },
      "40002-21": { className: "PortScan", fraction: 3 / 5, rule: "scan" },
      "40003-21": { className: "FTP-Patator", fraction: 1 / 2, rule: "ftp" },
      "40004-22": null,
      "21-40005": { className: "FTP-Patator - Attempted", fraction: 1, rule: "ftp" },
      "40006-21": { className: "FTP-Patator", fraction: 2 / 3, rule: "ftp" },
      "40007-21": { className: "PortScan", fraction: 1 / 2, rule: "scan" },
      "40008-21": null,
      "5000-21": null,
      "49000-8080": { className: "Bot", fraction: 1, rule: "bot" },
      "49001-8080": { className: "Bot - Attempted", fraction: 1, rule: "bot" },
      "1000-80": null,
      "3333-53": { className: "v6 flood", fraction: 1, rule: "v6" },
    });
    // Per window: the sessions above and their packets inside it.
    expect(source.summary()).toEqual({
      timezone: "America/Halifax",
      windows: {
        ftp: { class: "FTP-Patator", sessions: 5, packets: 5 + 5 + 1 + 3 + 2, attempted: 2 },
        scan: { class: "PortScan", sessions: 2, packets: 3 + 1, attempted: 0 },
        bot: { class: "Bot", sessions: 2, packets: 3 + 2, attempted: 1 },
        v6: { class: "v6 flood", sessions: 1, packets: 2, attempted: 0 },
        unused: { class: "Heartbleed", sessions: 0, packets: 0, attempted: 0 },
      },
      windowsWithoutSessions: ["unused"],
    });
  });

  it("counts a packet inside two overlapping windows for both", async () => {
    const pair = { attackers: ["172.16.0.2"], victims: [VICTIM] };
    const source = new ScheduleSource(
      compileSchedule({
        timezone: "UTC",
        windows: [
          { id: "early", class: "A", start: "2017-07-04 12:20:00", end: "2017-07-04 12:20:59", ...pair },
          { id: "late", class: "B", start: "2017-07-04 12:20:30", end: "2017-07-04 12:21:29", ...pair },
        ],
      }),
    );
    // Seconds after 12:20:00: "early" holds 0 to 59, "late" 30 to 89.
    const at = (seconds: number, port: number) => tcpAt(seconds, "172.16.0.2", port, VICTIM, 80, 1);
    const capture = [
      ...[35, 40, 65].map((s) => at(s, 2000)), // 2 in "early", 3 in "late"
      ...[10, 35, 65, 70].map((s) => at(s, 2001)), // 2 in "early", 3 of 4 in "late"
      ...[35, 45].map((s) => at(s, 2002)), // 2 in each: a tie, which "early" takes
    ].sort((a, b) => a.tsSec - b.tsSec);
    expect(Object.fromEntries(await labelled(source, capture))).toEqual({
      "2000-80": { className: "B", fraction: 1, rule: "late" },
      "2001-80": { className: "B", fraction: 3 / 4, rule: "late" },
      "2002-80": { className: "A", fraction: 1, rule: "early" },
    });
  });

  it("labels the next capture alike, its figures added to the first's (one source serves every capture)", async () => {
    const source = new ScheduleSource(compileSchedule({ timezone: "America/Halifax", windows: WINDOWS }));
    const first = await labelled(source);
    const second = await labelled(source);
    expect(second).toEqual(first);
    expect(source.summary()).toMatchObject({
      windows: { ftp: { sessions: 10, packets: 32, attempted: 4 }, bot: { sessions: 4, packets: 10, attempted: 2 } },
      windowsWithoutSessions: ["unused"],
    });
  });

  it("keeps the state of more than a thousand sessions open at once", async () => {
    // 1100 sessions, all open together (first packets, then second packets): more records than the source starts
    // with room for (1024). Odd ports come from the attacker to the victim; even ones from a host of no window.
    const many: CapturedPacket[] = [];
    for (let round = 0; round < 2; round++) {
      for (let port = 10000; port < 11100; port++) {
        const at = 100 + round * 60 + (port - 10000) / 1000;
        const src = port % 2 === 1 ? ATTACKER : "10.1.1.1";
        many.push(round === 0 ? tcpAt(at, src, port, VICTIM, 21, 8) : tcpAt(at, VICTIM, 21, src, port));
      }
    }
    const source = new ScheduleSource(compileSchedule({ timezone: "America/Halifax", windows: WINDOWS }));
    const matches = await labelled(source, many);
    expect(matches.size).toBe(1100);
    const ftp = { className: "FTP-Patator", fraction: 1, rule: "ftp" };
    const wrong = [...matches].filter(
      ([key, match]) => JSON.stringify(match) !== JSON.stringify(Number(key.split("-")[0]) % 2 === 1 ? ftp : null),
    );
    expect(wrong).toEqual([]);
    expect(source.summary()).toMatchObject({
      windows: { ftp: { sessions: 550, packets: 1100, attempted: 0 } },
      windowsWithoutSessions: ["scan", "bot", "v6", "unused"],
    });
  });

  it("reads the schedule's times in its time zone: the same clock times in UTC miss every session", async () => {
    const source = new ScheduleSource(compileSchedule({ timezone: "UTC", windows: WINDOWS.slice(0, 3) }));
    const matches = await labelled(source);
    expect([...matches.values()].every((match) => match === null)).toBe(true);
    expect(source.summary()).toMatchObject({ windowsWithoutSessions: ["ftp", "scan", "bot"] });
  });
});
