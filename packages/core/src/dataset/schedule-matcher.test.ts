// The schedule matcher: either direction, the victim's port, protocol, the time cut, IPv6, wide prefixes; and random
// schedules and sessions against a plain reference (BigInt prefixes, a scan of every window).
import { describe, expect, it } from "vitest";
import { parseIpAddress } from "../net/ip-address.js";
import { seededRandom } from "../testing/seeded-random.js";
import { type CompiledSchedule, compileSchedule, type ScheduleWindowSpec } from "./schedule.js";
import { ScheduleMatcher } from "./schedule-matcher.js";

const ms = (hour: number, minute: number, second = 0) => Date.UTC(2017, 6, 4, hour, minute, second) * 1000;

const SPEC: ScheduleWindowSpec[] = [
  {
    id: "ftp",
    class: "FTP-Patator",
    start: "2017-07-04 09:00",
    end: "2017-07-04 09:09",
    attackers: ["172.16.0.1"],
    victims: ["192.168.10.50"],
    ports: [21],
    protocol: "tcp",
  },
  {
    id: "scan",
    class: "PortScan",
    start: "2017-07-04 09:10",
    end: "2017-07-04 09:19",
    attackers: ["172.16.0.1"],
    victims: ["192.168.10.0/24"],
  },
  {
    id: "v6",
    class: "v6",
    start: "2017-07-04 09:00",
    end: "2017-07-04 09:59",
    attackers: ["2001:db8::/64"],
    victims: ["2001:db8:1::10"],
    ports: ["8000-8100"],
  },
  {
    id: "udp",
    class: "flood",
    start: "2017-07-04 09:00",
    end: "2017-07-04 09:59",
    attackers: ["10.9.9.9"],
    victims: ["10.0.0.0/8"],
    protocol: "udp",
  },
];

/** The matcher's answer as [window id, attacker side] pairs. */
function finder(schedule: CompiledSchedule) {
  const matcher = new ScheduleMatcher(schedule);
  const out = new Int32Array(schedule.windows.length);
  return (protocol: number, a: string, aPort: number, b: string, bPort: number, fromUs: number) => {
    const aBytes = bytes(a);
    const n = matcher.find(
      protocol,
      aBytes.length === 4 ? 4 : 6,
      pad(aBytes),
      aPort,
      pad(bytes(b)),
      bPort,
      fromUs,
      out,
    );
    return [...out.subarray(0, n)].map((code) => [
      schedule.windows[code >> 1].id,
      (code & 1) === 1 ? "forward attacks" : "backward attacks",
    ]);
  };
}

function bytes(text: string): Uint8Array {
  const parsed = parseIpAddress(text);
  if (parsed === undefined) throw new Error(`bad test address ${text}`);
  return parsed;
}

/** A session's endpoints come in 16-byte buffers, of which IPv4 uses 4: the rest must not matter. */
function pad(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(16).fill(0xee);
  out.set(address);
  return out;
}

describe("ScheduleMatcher", () => {
  const find = finder(compileSchedule({ timezone: "UTC", windows: SPEC }));
  const nine = ms(9, 0);

  it("finds the windows holding a session either way round, saying which side attacks", () => {
    expect(find(6, "172.16.0.1", 40000, "192.168.10.50", 21, nine)).toEqual([
      ["ftp", "forward attacks"],
      ["scan", "forward attacks"],
    ]);
    expect(find(6, "192.168.10.50", 21, "172.16.0.1", 40000, nine)).toEqual([
      ["ftp", "backward attacks"],
      ["scan", "backward attacks"],
    ]);
  });

  it("matches ports on the victim's side only", () => {
    expect(find(6, "172.16.0.1", 40000, "192.168.10.50", 22, nine)).toEqual([["scan", "forward attacks"]]);
    expect(find(6, "172.16.0.1", 21, "192.168.10.50", 40000, nine)).toEqual([["scan", "forward attacks"]]);
    expect(find(6, "2001:db8::5", 3333, "2001:db8:1::10", 8100, nine)).toEqual([["v6", "forward attacks"]]);
    expect(find(6, "2001:db8:1::10", 8000, "2001:db8::5", 3333, nine)).toEqual([["v6", "backward attacks"]]);
    expect(find(6, "2001:db8::5", 3333, "2001:db8:1::10", 8101, nine)).toEqual([]);
    expect(find(6, "2001:db8::5", 8080, "2001:db8:1::10", 7999, nine)).toEqual([]);
  });

  it("keeps to a window's protocol", () => {
    expect(find(17, "172.16.0.1", 40000, "192.168.10.50", 21, nine)).toEqual([["scan", "forward attacks"]]);
    expect(find(17, "10.200.1.1", 53, "10.9.9.9", 5353, nine)).toEqual([["udp", "backward attacks"]]);
    expect(find(6, "10.9.9.9", 5353, "10.200.1.1", 53, nine)).toEqual([]);
  });

  it("leaves out windows that ended before the session's first packet", () => {
    expect(find(6, "172.16.0.1", 40000, "192.168.10.50", 21, ms(9, 10) - 1)).toHaveLength(2);
    expect(find(6, "172.16.0.1", 40000, "192.168.10.50", 21, ms(9, 10))).toEqual([["scan", "forward attacks"]]);
    expect(find(6, "172.16.0.1", 40000, "192.168.10.50", 21, ms(9, 20))).toEqual([]);
    // A window that has not started yet may still hold the session's later packets.
    expect(find(6, "172.16.0.1", 40000, "192.168.10.51", 22, ms(8, 0))).toEqual([["scan", "forward attacks"]]);
  });

  it("finds nothing for endpoints outside the windows, or of the other family", () => {
    expect(find(6, "10.0.0.1", 1000, "10.0.0.2", 80, nine)).toEqual([]);
    expect(find(6, "172.16.0.1", 40000, "192.168.11.50", 21, nine)).toEqual([]);
    expect(find(6, "2001:db8:0:1::5", 3333, "2001:db8:1::10", 8080, nine)).toEqual([]);
    expect(find(17, "::ffff:10.9.9.9", 1, "::ffff:10.1.1.1", 2, nine)).toEqual([]);
  });

  it("calls the forward side the attacker when both ways round match", () => {
    const both = finder(
      compileSchedule({
        timezone: "UTC",
        windows: [
          {
            class: "lateral",
            start: "2017-07-04 09:00",
            end: "2017-07-04 09:59",
            attackers: ["10.0.0.0/8"],
            victims: ["10.0.0.0/8"],
          },
        ],
      }),
    );
    expect(both(6, "10.0.0.1", 1000, "10.0.0.2", 80, nine)).toEqual([["w1", "forward attacks"]]);
  });

  it("agrees with a scan of every window on random schedules and sessions", () => {
    const random = seededRandom(30);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const hosts = [
      "10.0.0.1",
      "10.0.0.2",
      "10.0.1.7",
      "10.128.0.1",
      "192.168.10.50",
      "2001:db8::1",
      "2001:db8::2",
      "2001:db8:0:1::9",
    ];
    const prefixes = [
      "10.0.0.0/24",
      "10.0.0.0/8",
      "0.0.0.0/0",
      "128.0.0.0/1",
      "2001:db8::/64",
      "2001:db8::/32",
      "::/0",
    ];
    const entry = () => (random() < 0.6 ? pick(hosts) : pick(prefixes));
    const windows: ScheduleWindowSpec[] = [];
    for (let i = 0; i < 60; i++) {
      const start = Math.floor(random() * 50);
      const length = 1 + Math.floor(random() * 10);
      windows.push({
        class: `c${i}`,
        start: `2017-07-04 09:${String(start).padStart(2, "0")}`,
        end: `2017-07-04 ${start + length >= 60 ? "10:00" : `09:${String(start + length).padStart(2, "0")}`}`,
        attackers: [entry(), entry()],
        victims: [entry()],
        ...(random() < 0.3 ? { ports: [80, "1000-2000"] } : {}),
        ...(random() < 0.3 ? { protocol: pick(["tcp", "udp"] as const) } : {}),
      });
    }
    const schedule = compileSchedule({ timezone: "UTC", windows });
    const find = finder(schedule);
    let matched = 0;
    for (let i = 0; i < 3000; i++) {
      const v6 = random() < 0.3;
      const family = hosts.filter((h) => h.includes(":") === v6);
      const [a, b] = [pick(family), pick(family)];
      const [aPort, bPort] = [pick([80, 1500, 4444]), pick([80, 1500, 4444])];
      const protocol = pick([6, 17]);
      const fromUs = ms(9, Math.floor(random() * 61));
      const expected = schedule.windows.flatMap((w): string[][] => {
        if (w.endUs <= fromUs) return [];
        if (w.protocol !== 0 && w.protocol !== protocol) return [];
        const spec = windows[w.index];
        const port = (p: number) => spec.ports === undefined || p === 80 || (p >= 1000 && p <= 2000);
        const holds = (attacker: string, victim: string, victimPort: number) =>
          spec.attackers.some((c) => inPrefix(attacker, c)) &&
          spec.victims.some((c) => inPrefix(victim, c)) &&
          port(victimPort);
        if (holds(a, b, bPort)) return [[w.id, "forward attacks"]];
        if (holds(b, a, aPort)) return [[w.id, "backward attacks"]];
        return [];
      });
      const found = find(protocol, a, aPort, b, bPort, fromUs);
      if (JSON.stringify(found) !== JSON.stringify(expected))
        expect(found, `${a}:${aPort} ${b}:${bPort} proto ${protocol} from ${fromUs}`).toEqual(expected);
      matched += found.length > 0 ? 1 : 0;
    }
    // The test means something only if both outcomes are common.
    expect(matched).toBeGreaterThan(500);
    expect(matched).toBeLessThan(2500);
  });
});

const known = new Map<string, boolean>();

/** Whether `address` is in CIDR `cidr`, by BigInt arithmetic on the address's bits. */
function inPrefix(address: string, cidr: string): boolean {
  const key = `${address} ${cidr}`;
  let answer = known.get(key);
  if (answer === undefined) {
    answer = computeInPrefix(address, cidr);
    known.set(key, answer);
  }
  return answer;
}

function computeInPrefix(address: string, cidr: string): boolean {
  const [net, length] = cidr.split("/");
  const a = bytes(address);
  const n = bytes(net);
  if (a.length !== n.length) return false;
  const bits = BigInt(a.length * 8);
  const prefix = BigInt(length ?? a.length * 8);
  const value = (x: Uint8Array) => x.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
  const shift = bits - prefix;
  return value(a) >> shift === value(n) >> shift;
}
