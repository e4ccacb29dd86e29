// Every feature column, exactly, for small hand-written sessions; expected rows come from an independent
// exact-arithmetic reference of docs/features.md (rational sums, decimal rounding), not from this code.
import { describe, expect, it } from "vitest";
import { csvHeaderLine } from "../outputs/csv-header.js";
import { type Case, record, runScenario } from "../testing/feature-scenario.js";
import { FEATURE_COLUMNS } from "./feature-set.js";

const cases: Case[] = [
  {
    title: "handshake, data, FIN close with the final ACK and a late retransmitted FIN",
    packets: `
0 10.0.0.1:40000 > 10.0.0.2:80 tcp S 60 20/40
0.001 10.0.0.2:80 > 10.0.0.1:40000 tcp SA 60 20/40
0.002 10.0.0.1:40000 > 10.0.0.2:80 tcp A 52 20/32
0.010 10.0.0.1:40000 > 10.0.0.2:80 tcp PA 152 20/32
0.011 10.0.0.2:80 > 10.0.0.1:40000 tcp A 52 20/32
0.020 10.0.0.2:80 > 10.0.0.1:40000 tcp PA 552 20/32
0.021 10.0.0.1:40000 > 10.0.0.2:80 tcp FA 52 20/32
0.022 10.0.0.2:80 > 10.0.0.1:40000 tcp FA 52 20/32
0.023 10.0.0.1:40000 > 10.0.0.2:80 tcp A 52 20/32
5.000000001 10.0.0.2:80 > 10.0.0.1:40000 tcp FA 52 20/32`,
    rows: [
      "6,1700000000,10.0.0.1,40000,10.0.0.2,80,5.000000001,5,5,368,768,52,152,73.6,43.963621,52,552,153.6,222.73931,0.023,0.002,0.011,0.00575,0.0045,4.999000001,0.002,4.978000001,1.24975,2.485502549,1,1,0,0,268,268,1,1,227.2,113.6,157.12076,0.555555556,1.658044866,3,2,0,9,0,0,0,2.086957",
    ],
    reasons: ["fin"],
    outOfOrder: 0,
  },
  {
    title: "a RST close with a late ACK",
    packets: `
0 10.0.0.3:40001 > 10.0.0.4:443 tcp S 60 20/40
0.5 10.0.0.4:443 > 10.0.0.3:40001 tcp RA 40 20/20
1.25 10.0.0.3:40001 > 10.0.0.4:443 tcp A 40 20/20`,
    rows: [
      "6,1700000000,10.0.0.3,40001,10.0.0.4,443,1.25,2,1,100,40,40,60,50,14.142136,40,40,40,0,1.25,1.25,1.25,1.25,0,0,0,0,0,0,0,0,0,0,100,40,1.6,0.8,112,46.666667,11.547005,0.625,0.176776695,0,1,1,2,0,0,0,0.4",
    ],
    reasons: ["rst"],
    outOfOrder: 0,
  },
  {
    title: "a capture starting at the SYN-ACK",
    packets: `
0.3 10.0.0.2:80 > 10.0.0.1:40002 tcp SA 60 20/40
0.301 10.0.0.1:40002 > 10.0.0.2:80 tcp A 52 20/32
0.302 10.0.0.1:40002 > 10.0.0.2:80 tcp PUA 100 20/32
0.4 10.0.0.2:80 > 10.0.0.1:40002 tcp ECA 52 20/32`,
    rows: [
      "6,1700000000.3,10.0.0.1,40002,10.0.0.2,80,0.1,2,2,152,112,52,100,76,33.941125,52,60,56,5.656854,0.001,0.001,0.001,0.001,0,0.1,0.1,0.1,0.1,0,1,0,1,0,104,112,20,20,2640,66,22.978251,0.033333333,0.056002976,0,1,0,4,1,1,1,0.736842",
    ],
    reasons: ["end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "idle and active timeouts splitting a UDP conversation",
    packets: `
0 10.0.0.5:5000 > 10.0.0.6:53 udp - 60 20/8
1 10.0.0.5:5000 > 10.0.0.6:53 udp - 70 20/8
12 10.0.0.5:5000 > 10.0.0.6:53 udp - 80 20/8
20 10.0.0.6:53 > 10.0.0.5:5000 udp - 90 20/8
29 10.0.0.5:5000 > 10.0.0.6:53 udp - 100 20/8
38 10.0.0.5:5000 > 10.0.0.6:53 udp - 110 20/8
43 10.0.0.5:5000 > 10.0.0.6:53 udp - 120 20/8
45 10.0.0.6:53 > 10.0.0.5:5000 udp - 130 20/8
55 10.0.0.6:53 > 10.0.0.5:5000 udp - 140 20/8`,
    rows: [
      "17,1700000000,10.0.0.5,5000,10.0.0.6,53,1,2,0,130,0,60,70,65,7.071068,0,0,0,0,1,1,1,1,0,0,0,0,0,0,0,0,0,0,56,0,2,0,130,65,7.071068,1,0,0,0,0,0,0,0,0,0",
      "17,1700000012,10.0.0.5,5000,10.0.0.6,53,26,3,1,290,90,80,110,96.666667,15.275252,90,90,90,0,26,9,17,13,5.656854249,0,0,0,0,0,0,0,0,0,84,28,0.115385,0.038462,14.615385,95,12.909944,8.666666667,0.577350269,0,0,0,0,0,0,0,0.310345",
      "17,1700000043,10.0.0.5,5000,10.0.0.6,53,12,1,2,120,270,120,120,120,0,130,140,135,7.071068,0,0,0,0,0,10,10,10,10,0,0,0,0,0,28,56,0.083333,0.166667,32.5,130,10,6,5.656854249,0,0,0,0,0,0,0,2.25",
    ],
    reasons: ["idle", "active", "end-of-capture"],
    outOfOrder: 0,
    options: { idleTimeoutNs: 10_000_000_000, activeTimeoutNs: 30_000_000_000 },
  },
  {
    title: "port reuse after a FIN close",
    packets: `
0 10.0.0.9:40003 > 10.0.0.10:22 tcp S 60 20/40
0.001 10.0.0.10:22 > 10.0.0.9:40003 tcp SA 60 20/40
0.002 10.0.0.9:40003 > 10.0.0.10:22 tcp A 52 20/32
0.003 10.0.0.9:40003 > 10.0.0.10:22 tcp FA 52 20/32
0.004 10.0.0.10:22 > 10.0.0.9:40003 tcp FA 52 20/32
0.005 10.0.0.9:40003 > 10.0.0.10:22 tcp A 52 20/32
1 10.0.0.9:40003 > 10.0.0.10:22 tcp S 60 20/40
1.001 10.0.0.10:22 > 10.0.0.9:40003 tcp SA 60 20/40
1.002 10.0.0.9:40003 > 10.0.0.10:22 tcp A 52 20/32`,
    rows: [
      "6,1700000000,10.0.0.9,40003,10.0.0.10,22,0.005,4,2,216,112,52,60,54,4,52,60,56,5.656854,0.005,0.001,0.002,0.001666667,0.00057735,0.003,0.003,0.003,0.003,0,0,0,0,0,216,112,800,400,65600,54.666667,4.131182,0.001,0,2,2,0,5,0,0,0,0.518519",
      "6,1700000001,10.0.0.9,40003,10.0.0.10,22,0.002,2,1,112,60,52,60,56,5.656854,60,60,60,0,0.002,0.002,0.002,0.002,0,0,0,0,0,0,0,0,0,0,112,60,1000,500,86000,57.333333,4.618802,0.001,0,0,2,0,2,0,0,0,0.535714",
    ],
    reasons: ["fin", "end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "UDP with a fragmented answer",
    packets: `
0.000001 192.168.1.7:5353 > 192.168.1.8:53 udp - 60 20/8
0.0005 192.168.1.8:53 > 192.168.1.7:5353 udp - 1500 20/8
0.000502 192.168.1.8:53 > 192.168.1.7:5353 udp - 520 20/0`,
    rows: [
      "17,1700000000.000001,192.168.1.7,5353,192.168.1.8,53,0.000501,1,2,60,2020,60,60,60,0,520,1500,1010,692.964646,0,0,0,0,0,0.000002,0.000002,0.000002,0.000002,0,0,0,0,0,28,48,1996.007984,3992.015968,4151696.606786,693.333333,735.481702,0.0002505,0.000351432,0,0,0,0,0,0,0,33.666667",
    ],
    reasons: ["end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "IPv6 with an extension header",
    packets: `
0 [2001:db8::1]:40004 > [2001:db8:0:0:1::2]:443 tcp S 88 48/40
0.000123456 [2001:db8:0:0:1::2]:443 > [2001:db8::1]:40004 tcp SA 80 40/40
0.000200001 [2001:db8::1]:40004 > [2001:db8:0:0:1::2]:443 tcp A 72 40/32`,
    rows: [
      "6,1700000000,2001:db8::1,40004,2001:db8::1:0:0:2,443,0.000200001,2,1,160,80,72,88,80,11.313708,80,80,80,0,0.000200001,0.000200001,0.000200001,0.000200001,0,0,0,0,0,0,0,0,0,0,160,80,9999.95,4999.975,1199994.00003,80,8,0.000100001,0.000033171,0,2,0,2,0,0,0,0.5",
    ],
    reasons: ["end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "timestamps going backwards",
    packets: `
10 10.1.0.1:1000 > 10.1.0.2:2000 udp - 100 20/8
12 10.1.0.2:2000 > 10.1.0.1:1000 udp - 200 20/8
11.5 10.1.0.1:1000 > 10.1.0.2:2000 udp - 300 20/8
13 10.1.0.1:1000 > 10.1.0.2:2000 udp - 400 20/8`,
    rows: [
      "17,1700000010,10.1.0.1,1000,10.1.0.2,2000,3,3,1,800,200,100,400,266.666667,152.752523,200,200,200,0,3,1,2,1.5,0.707106781,0,0,0,0,0,0,0,0,0,84,28,1,0.333333,333.333333,250,129.099445,1,1,0,0,0,0,0,0,0,0.25",
    ],
    reasons: ["end-of-capture"],
    outOfOrder: 1,
  },
  {
    title: "a half close (one FIN) that goes idle, then a late packet starting a new session",
    packets: `
0 10.2.0.1:41000 > 10.2.0.2:80 tcp S 60 20/40
0.001 10.2.0.2:80 > 10.2.0.1:41000 tcp SA 60 20/40
0.002 10.2.0.1:41000 > 10.2.0.2:80 tcp FA 52 20/32
200 10.2.0.2:80 > 10.2.0.1:41000 tcp A 52 20/32`,
    rows: [
      "6,1700000000,10.2.0.1,41000,10.2.0.2,80,0.002,2,1,112,60,52,60,56,5.656854,60,60,60,0,0.002,0.002,0.002,0.002,0,0,0,0,0,0,0,0,0,0,112,60,1000,500,86000,57.333333,4.618802,0.001,0,1,2,0,2,0,0,0,0.535714",
      "6,1700000200,10.2.0.2,80,10.2.0.1,41000,0,1,0,52,0,52,52,52,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,52,0,0,0,0,52,0,0,0,0,0,0,1,0,0,0,0",
    ],
    reasons: ["idle", "end-of-capture"],
    outOfOrder: 0,
  },
  {
    title: "port reuse after a RST",
    packets: `
0 10.3.0.1:42000 > 10.3.0.2:25 tcp S 60 20/40
0.25 10.3.0.2:25 > 10.3.0.1:42000 tcp RA 40 20/20
0.5 10.3.0.1:42000 > 10.3.0.2:25 tcp S 60 20/40
0.75 10.3.0.2:25 > 10.3.0.1:42000 tcp SA 60 20/40`,
    rows: [
      "6,1700000000,10.3.0.1,42000,10.3.0.2,25,0.25,1,1,60,40,60,60,60,0,40,40,40,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,60,40,4,4,400,50,14.142136,0.25,0,0,1,1,1,0,0,0,0.666667",
      "6,1700000000.5,10.3.0.1,42000,10.3.0.2,25,0.25,1,1,60,60,60,60,60,0,60,60,60,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,60,60,4,4,480,60,0,0.25,0,0,2,0,1,0,0,0,1",
    ],
    reasons: ["rst", "end-of-capture"],
    outOfOrder: 0,
  },
];

/** 200 days in seconds. */
const FAR = 200 * 86_400;

/** `whole.fraction` seconds as text, `seconds` later (text arithmetic: exact whatever the magnitude). */
function later(time: string, seconds: number): string {
  const [whole, fraction] = time.split(".");
  return `${Number(whole) + seconds}${fraction === undefined ? "" : `.${fraction}`}`;
}

/** A scenario's packets FAR seconds later, after one packet of another session at the epoch (scenario time −1.7e9). */
function farFromStart(packets: string): string {
  const moved = packets
    .trim()
    .split("\n")
    .map((line) => {
      const [time, ...rest] = line.trim().split(/\s+/);
      return [later(time, FAR), ...rest].join(" ");
    });
  return ["-1700000000 192.0.2.1:9 > 192.0.2.2:9 udp - 28 20/8", ...moved].join("\n");
}

/** An expected row of a scenario moved FAR seconds later: its ts only. */
function farRow(row: string): string {
  const values = row.split(",");
  values[1] = later(values[1], FAR);
  return values.join(",");
}

describe("feature columns", () => {
  it("are the 50 columns of SPEC.md §3, in order", () => {
    expect(csvHeaderLine(FEATURE_COLUMNS)).toBe(
      "protocol,ts,srcIP,srcPrt,dstIP,dstPrt,flowduration,total_fpackets,total_bpackets,total_fpktl,total_bpktl," +
        "min_fpktl,max_fpktl,mean_fpktl,std_fpktl,min_bpktl,max_bpktl,mean_bpktl,std_bpktl,total_fipt,min_fipt," +
        "max_fipt,mean_fipt,std_fipt,total_bipt,min_bipt,max_bipt,mean_bipt,std_bipt,fpsh_cnt,bpsh_cnt,furg_cnt," +
        "burg_cnt,total_fhlen,total_bhlen,fPktsPerSecond,bPktsPerSecond,flowBytesPerSecond,mean_flowpktl," +
        "std_flowpktl,mean_flowipt,std_flowipt,flow_fin,flow_syn,flow_rst,flow_ack,flow_urg,flow_cwr,flow_ece," +
        "downUpRatio\n",
    );
  });

  for (const scenario of cases) {
    it(`are exact for ${scenario.title}`, () => {
      const result = runScenario(scenario.packets, scenario.options);
      expect(result.rows.map(record)).toEqual(scenario.rows.map(record));
      expect(result.rows).toEqual(scenario.rows);
      expect(result.reasons).toEqual(scenario.reasons);
      expect(result.outOfOrder).toBe(scenario.outOfOrder);
    });
  }

  // The same sessions 200 days after a first packet at the epoch (a pcapng block with a zero timestamp): far beyond
  // 2^53 ns (104 days) from the capture's first time, every column but ts is the same, and ts moves by exactly that.
  for (const scenario of cases) {
    it(`are exact for ${scenario.title}, 200 days after a first packet at time 0`, () => {
      const result = runScenario(farFromStart(scenario.packets), scenario.options);
      expect(result.rows[0]).toBe(
        "17,0,192.0.2.1,9,192.0.2.2,9,0,1,0,28,0,28,28,28,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,28,0,0,0,0,28,0,0,0,0,0,0,0,0,0,0,0",
      );
      expect(result.rows.slice(1)).toEqual(scenario.rows.map(farRow));
      expect(result.reasons).toEqual(["idle", ...scenario.reasons]);
      expect(result.outOfOrder).toBe(scenario.outOfOrder);
    });
  }

  it("never writes NaN, Infinity, exponents or empty values", () => {
    const rows = cases.flatMap((scenario) => runScenario(scenario.packets, scenario.options).rows);
    for (const line of rows) {
      for (const value of line.split(",")) expect(value).toMatch(/^(\d+(\.\d+)?|[0-9a-f:.]+)$/);
    }
  });
});
