// The lazy feature state's edge cases, every column exact: a session gets its state only at its second packet, when
// its first packet is replayed from the record, and a one-packet session is finished by replaying its packet into a
// scratch state. Expected rows come from the same exact reference as feature-set.test.ts, not from this code.
import { describe, expect, it } from "vitest";
import { type Case, record, runScenario } from "../testing/feature-scenario.js";

const cases: Case[] = [
  {
    title: "one-packet sessions: TCP with CWR and ECE, UDP over IPv6, TCP with FIN, PSH and URG",
    packets: `
0 10.4.0.1:43000 > 10.4.0.2:80 tcp SEC 60 24/40
0.5 [2001:db8::7]:5353 > [2001:db8::8]:53 udp - 1234 48/8
1 10.4.0.3:43001 > 10.4.0.4:80 tcp FPAU 1500 20/32`,
    rows: [
      "6,1700000000,10.4.0.1,43000,10.4.0.2,80,0,1,0,60,0,60,60,60,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,64,0,0,0,0,60,0,0,0,0,1,0,0,0,1,1,0",
      "17,1700000000.5,2001:db8::7,5353,2001:db8::8,53,0,1,0,1234,0,1234,1234,1234,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,56,0,0,0,0,1234,0,0,0,0,0,0,0,0,0,0,0",
      "6,1700000001,10.4.0.3,43001,10.4.0.4,80,0,1,0,1500,0,1500,1500,1500,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,1,0,52,0,0,0,0,1500,0,0,0,1,0,0,1,1,0,0,0",
    ],
    reasons: ["end-of-capture", "end-of-capture", "end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "sessions whose first packet is a SYN-ACK (backward): alone, then backward again, then forward",
    packets: `
0 10.5.0.2:80 > 10.5.0.1:44000 tcp SA 60 20/40
1 10.5.0.2:81 > 10.5.0.1:44001 tcp SA 60 20/40
1.25 10.5.0.2:81 > 10.5.0.1:44001 tcp PA 300 20/32
1.5 10.5.0.1:44001 > 10.5.0.2:81 tcp A 52 20/32
2 10.5.0.2:82 > 10.5.0.1:44002 tcp SA 60 20/40
2.000001 10.5.0.1:44002 > 10.5.0.2:82 tcp A 52 20/32`,
    rows: [
      "6,1700000000,10.5.0.1,44000,10.5.0.2,80,0,0,1,0,60,0,0,0,0,60,60,60,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,60,0,0,0,60,0,0,0,0,1,0,1,0,0,0,0",
      "6,1700000001,10.5.0.1,44001,10.5.0.2,81,0.5,1,2,52,360,52,52,52,0,60,300,180,169.705627,0,0,0,0,0,0.25,0.25,0.25,0.25,0,0,1,0,0,52,112,2,4,824,137.333333,140.930243,0.25,0,0,1,0,3,0,0,0,6.923077",
      "6,1700000002,10.5.0.1,44002,10.5.0.2,82,0.000001,1,1,52,60,52,52,52,0,60,60,60,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,52,60,1000000,1000000,112000000,56,5.656854,0.000001,0,0,1,0,2,0,0,0,1.153846",
    ],
    reasons: ["end-of-capture", "end-of-capture", "end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "a second packet the other way",
    packets: `
0 10.6.0.1:6000 > 10.6.0.2:53 udp - 70 20/8
0.25 10.6.0.2:53 > 10.6.0.1:6000 udp - 170 20/8`,
    rows: [
      "17,1700000000,10.6.0.1,6000,10.6.0.2,53,0.25,1,1,70,170,70,70,70,0,170,170,170,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,28,28,4,4,960,120,70.710678,0.25,0,0,0,0,0,0,0,0,2.428571",
    ],
    reasons: ["end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "a second packet the same way (UDP, then a repeated SYN)",
    packets: `
0 10.7.0.1:7000 > 10.7.0.2:7001 udp - 100 20/8
0.1 10.7.0.1:7000 > 10.7.0.2:7001 udp - 300 20/8
0.4 10.7.0.2:7001 > 10.7.0.1:7000 udp - 50 20/8
1 10.7.0.3:7002 > 10.7.0.4:443 tcp S 60 20/40
2 10.7.0.3:7002 > 10.7.0.4:443 tcp S 60 20/40`,
    rows: [
      "17,1700000000,10.7.0.1,7000,10.7.0.2,7001,0.4,2,1,400,50,100,300,200,141.421356,50,50,50,0,0.1,0.1,0.1,0.1,0,0,0,0,0,0,0,0,0,0,56,28,5,2.5,1125,150,132.287566,0.2,0.141421356,0,0,0,0,0,0,0,0.125",
      "6,1700000001,10.7.0.3,7002,10.7.0.4,443,1,2,0,120,0,60,60,60,0,0,0,0,0,1,1,1,1,0,0,0,0,0,0,0,0,0,0,120,0,2,0,120,60,0,1,0,0,2,0,0,0,0,0,0",
    ],
    reasons: ["end-of-capture", "end-of-capture"],
    outOfOrder: 0,
  },
];

/**
 * One record serves every session in turn (each ends idle before the next starts). The one-packet sessions V, Y and
 * W are finished from the scratch state; X's state is freed when it ends and is Z's at Z's second packet.
 */
const reuse: Case = {
  title: "a record and a state reused after sessions with and without a state ended",
  packets: `
0 10.8.0.9:9 > 10.8.0.10:9 udp - 40 20/8
2 10.8.0.1:1000 > 10.8.0.2:2000 udp - 500 20/8
2.1 10.8.0.2:2000 > 10.8.0.1:1000 udp - 600 20/8
2.2 10.8.0.1:1000 > 10.8.0.2:2000 udp - 700 20/8
5 10.8.0.3:1000 > 10.8.0.4:2000 udp - 80 20/8
7 10.8.0.7:5000 > 10.8.0.8:6000 tcp S 60 20/40
10 10.8.0.5:3000 > 10.8.0.6:4000 udp - 90 20/8
10.5 10.8.0.5:3000 > 10.8.0.6:4000 udp - 110 20/8`,
  rows: [
    "17,1700000000,10.8.0.9,9,10.8.0.10,9,0,1,0,40,0,40,40,40,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,28,0,0,0,0,40,0,0,0,0,0,0,0,0,0,0,0",
    "17,1700000002,10.8.0.1,1000,10.8.0.2,2000,0.2,2,1,1200,600,500,700,600,141.421356,600,600,600,0,0.2,0.2,0.2,0.2,0,0,0,0,0,0,0,0,0,0,56,28,10,5,9000,600,100,0.1,0,0,0,0,0,0,0,0,0.5",
    "17,1700000005,10.8.0.3,1000,10.8.0.4,2000,0,1,0,80,0,80,80,80,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,28,0,0,0,0,80,0,0,0,0,0,0,0,0,0,0,0",
    "6,1700000007,10.8.0.7,5000,10.8.0.8,6000,0,1,0,60,0,60,60,60,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,60,0,0,0,0,60,0,0,0,0,1,0,0,0,0,0,0",
    "17,1700000010,10.8.0.5,3000,10.8.0.6,4000,0.5,2,0,200,0,90,110,100,14.142136,0,0,0,0,0.5,0.5,0.5,0.5,0,0,0,0,0,0,0,0,0,0,56,0,4,0,400,100,14.142136,0.5,0,0,0,0,0,0,0,0,0",
  ],
  reasons: ["idle", "idle", "idle", "idle", "end-of-capture"],
  outOfOrder: 0,
  options: { idleTimeoutNs: 1_000_000_000 },
};

describe("lazy feature state", () => {
  for (const scenario of [...cases, reuse]) {
    it(`gives exact rows for ${scenario.title}`, () => {
      const result = runScenario(scenario.packets, scenario.options);
      expect(result.rows.map(record)).toEqual(scenario.rows.map(record));
      expect(result.rows).toEqual(scenario.rows);
      expect(result.reasons).toEqual(scenario.reasons);
      expect(result.outOfOrder).toBe(scenario.outOfOrder);
    });
  }

  it("takes an ended session's state again, and finishes one-packet sessions from one scratch state", () => {
    const [v, x, y, w, z] = runScenario(reuse.packets, reuse.options).states;
    expect(z).toBe(x);
    expect([y, w]).toEqual([v, v]);
    expect(v).not.toBe(x);
  });
});
