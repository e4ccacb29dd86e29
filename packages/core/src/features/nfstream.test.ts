// The nfstream set, every column exactly, on sessions written as arrays of packets: the expected values come from
// those arrays by the plain formulas of docs/features/nfstream.md (testing/nfstream-reference.ts), never the groups.
import { describe, expect, it } from "vitest";
import type { FlowTableOptions } from "../flow/flow-table-options.js";
import { cells, runScenario } from "../testing/feature-scenario.js";
import { expectedNfstream, type RefSession, scenarioLines } from "../testing/nfstream-reference.js";
import { FeatureSet } from "./feature-set.js";
import { nfstream } from "./sets/nfstream.js";
import { tracemill } from "./sets/tracemill.js";

/** NFStream's NFlow fields from bidirectional_first_seen_ms to splt_piat_ms, in its order (nfstream/flow.py). */
const NFSTREAM_FIELDS = [
  ...["bidirectional", "src2dst", "dst2src"].flatMap((w) =>
    ["first_seen_ms", "last_seen_ms", "duration_ms", "packets", "bytes"].map((f) => `${w}_${f}`),
  ),
  ...["bidirectional", "src2dst", "dst2src"].flatMap((w) =>
    ["min_ps", "mean_ps", "stddev_ps", "max_ps"].map((f) => `${w}_${f}`),
  ),
  ...["bidirectional", "src2dst", "dst2src"].flatMap((w) =>
    ["min_piat_ms", "mean_piat_ms", "stddev_piat_ms", "max_piat_ms"].map((f) => `${w}_${f}`),
  ),
  ...["bidirectional", "src2dst", "dst2src"].flatMap((w) =>
    ["syn", "cwr", "ece", "urg", "ack", "psh", "rst", "fin"].map((f) => `${w}_${f}_packets`),
  ),
  "splt_direction",
  "splt_ps",
  "splt_piat_ms",
];

interface Run {
  splt?: number;
  length?: "ip" | "frame";
  table?: FlowTableOptions;
}

/** Runs the sessions through the nfstream set alone; checks every row against the reference; the end reasons. */
function check(sessions: RefSession[], run: Run = {}) {
  const { rows, fullRows, reasons } = runScenario(scenarioLines(sessions), run.table ?? {}, [nfstream], run);
  // Rows written at the end and rows finished again from the kept state agree: finish only reads the sequences.
  expect(rows).toEqual(fullRows);
  expect(rows).toHaveLength(sessions.length);
  rows.forEach((row, i) => {
    const values = cells(row);
    const expected = expectedNfstream(sessions[i], run.splt ?? 32, run.length === "frame");
    expect(values).toHaveLength(6 + expected.length);
    const named = expected.map(([name], at) => [name, values[6 + at]]);
    expect(named, `session ${i}: ${row}`).toEqual(expected);
  });
  return { rows, reasons };
}

const handshake: RefSession = {
  proto: "tcp",
  a: "10.0.0.1:40000",
  b: "10.0.0.2:80",
  packets: [
    { t: "0.000100", from: "a", flags: "S", len: 60 },
    { t: "0.000950", from: "b", flags: "SA", len: 60 },
    { t: "0.001200", from: "a", flags: "A", len: 52 },
    { t: "0.002500", from: "a", flags: "PA", len: 152 },
    { t: "0.020999", from: "b", flags: "A", len: 52 },
    { t: "0.021000", from: "b", flags: "PA", len: 1500 },
    { t: "0.021001", from: "b", flags: "PAUEC", len: 1500 },
    { t: "0.055000", from: "a", flags: "A", len: 52 },
    { t: "0.100000", from: "a", flags: "FA", len: 52 },
    { t: "0.100400", from: "b", flags: "FA", len: 52 },
    { t: "0.101700", from: "a", flags: "A", len: 52 },
  ],
};

const reset: RefSession = {
  proto: "tcp",
  a: "10.0.0.3:40001",
  b: "10.0.0.2:443",
  packets: [
    { t: "5.000000", from: "a", flags: "S", len: 60 },
    { t: "5.000300", from: "b", flags: "RA", len: 40 },
    { t: "5.200000", from: "a", flags: "R", len: 40 },
  ],
};

const udp: RefSession = {
  proto: "udp",
  a: "192.168.1.1:5353",
  b: "192.168.1.2:5354",
  packets: [
    // 0.2 ms apart but in two milliseconds (gap 1), then 0.8 ms apart in one (gap 0): NFStream's truncation.
    { t: "1.000900", from: "a", flags: "-", len: 100 },
    { t: "1.001100", from: "b", flags: "-", len: 200 },
    { t: "1.001900", from: "a", flags: "-", len: 120 },
    { t: "1.999999999", from: "b", flags: "-", len: 90 },
    { t: "2.000000001", from: "a", flags: "-", len: 64 },
  ],
};

const ipv6: RefSession = {
  proto: "tcp",
  a: "[2001:db8::1]:40002",
  b: "[2001:db8::2]:443",
  packets: [
    { t: "3.000000", from: "a", flags: "S", len: 80 },
    { t: "3.012000", from: "b", flags: "SA", len: 80 },
    { t: "3.024500", from: "a", flags: "A", len: 72 },
    { t: "3.030000", from: "a", flags: "PA", len: 589 },
    { t: "3.250000", from: "b", flags: "PA", len: 1372 },
    { t: "3.260000", from: "a", flags: "FA", len: 72 },
    { t: "3.262000", from: "b", flags: "FA", len: 72 },
    { t: "3.270000", from: "a", flags: "A", len: 72 },
  ],
};

describe("the nfstream set", () => {
  it("has NFStream's flow fields after the session key, in NFStream's order, the sequences as list columns", () => {
    const columns = nfstream.groups.flatMap((group) => group.columns);
    expect(columns.map((column) => column.name)).toEqual(NFSTREAM_FIELDS);
    expect(columns).toHaveLength(66);
    expect(columns.filter((column) => column.type === "list").map((column) => column.name)).toEqual([
      "splt_direction",
      "splt_ps",
      "splt_piat_ms",
    ]);
    expect(new FeatureSet([nfstream]).columns.slice(0, 6)).toEqual([
      "protocol",
      "ts",
      "srcIP",
      "srcPrt",
      "dstIP",
      "dstPrt",
    ]);
  });

  it("measures a TCP session from handshake to FIN both ways and its last ACK, flags each way", () => {
    const { rows, reasons } = check([handshake]);
    expect(reasons).toEqual(["fin"]);
    // By hand, beside the reference: 11 packets, 3 584 bytes; gaps in truncated ms 0,1,1,18,1,0,34,45,0,1.
    const values = cells(rows[0]);
    expect(values.slice(6, 11)).toEqual(["1700000000000", "1700000000101", "101", "11", "3584"]);
    expect(values.slice(6 + 27, 6 + 31)).toEqual(["0", "10.1", "16.629626", "45"]);
    expect(values[6 + 65]).toBe(`"[0,0,1,1,18,1,0,34,45,0,1${",-1".repeat(21)}]"`);
  });

  it("keeps a RST session's late RST in it", () => {
    expect(check([reset]).reasons).toEqual(["rst"]);
  });

  it("measures one-packet sessions: a SYN, a UDP datagram, and a SYN-ACK whose sender is the backward side", () => {
    const lone = (
      a: string,
      b: string,
      t: string,
      proto: "tcp" | "udp",
      flags: string,
      len: number,
      from: "a" | "b",
    ) => ({
      proto,
      a,
      b,
      packets: [{ t, from, flags, len }],
    });
    const { rows } = check([
      lone("10.0.0.5:5000", "10.0.0.6:22", "7.123456789", "tcp", "S", 60, "a"),
      lone("10.0.0.7:53", "10.0.0.8:5000", "7.5", "udp", "-", 80, "a"),
      lone("10.0.0.8:50000", "10.0.0.9:443", "8.0009", "tcp", "SA", 60, "b"),
      // The same SYN again elsewhere: its row is its own (times), not a copy of the first.
      lone("10.0.0.15:5000", "10.0.0.16:22", "9.25", "tcp", "S", 60, "a"),
    ]);
    expect(cells(rows[2])[6 + 65]).toBe(`"[0${",-1".repeat(31)}]"`);
    expect(cells(rows[2])[6 + 63]).toBe(`"[1${",-1".repeat(31)}]"`);
  });

  it("measures a UDP session in both directions, with NFStream's millisecond truncation", () => {
    check([udp]);
  });

  it("measures an IPv6 session", () => {
    check([ipv6]);
  });

  it("keeps the first N packets of a longer session, pads a shorter one with -1, and keeps none for --splt 0", () => {
    check([handshake, reset], { splt: 4 });
    check([handshake, reset], { splt: 1 });
    const { rows } = check([handshake, reset], { splt: 0 });
    expect(cells(rows[0]).slice(-3)).toEqual(['"[]"', '"[]"', '"[]"']);
  });

  it("counts frame lengths with --length frame", () => {
    check([handshake, udp, ipv6], { length: "frame" });
  });

  it("keeps every session's sequence apart while many live at once and record slots and blocks are reused", () => {
    const sessions: RefSession[] = [];
    for (let k = 0; k < 40; k++) {
      const packets = [];
      const count = 2 + (k % 9);
      let at = k * 0.25;
      for (let i = 0; i < count; i++) {
        at += i === 0 ? 0 : 0.0312 * (1 + ((i * k) % 3));
        const t = at.toFixed(6);
        const last = i === count - 1;
        packets.push({
          t,
          from: i % 3 === 1 ? ("b" as const) : ("a" as const),
          flags: last ? "RA" : "PA",
          len: 60 + k * 7 + i,
        });
      }
      sessions.push({ proto: "tcp", a: `10.1.0.${k % 5}:${41000 + k}`, b: "10.2.0.1:80", packets });
    }
    // A 1 s idle timeout ends closed sessions soon: later sessions take their record slots and blocks again.
    check(sessions, { splt: 5, table: { idleTimeoutNs: 1e9 } });
    check(sessions, { splt: 12, table: { idleTimeoutNs: 1e9 } });
  });

  it("computed beside tracemill gives the same columns as alone, and leaves tracemill's as they were", () => {
    const lines = scenarioLines([handshake, reset, udp, ipv6]);
    const alone = runScenario(lines, {}, [nfstream]).rows.map(cells);
    const tracemillAlone = runScenario(lines, {}, [tracemill]).rows.map(cells);
    const both = runScenario(lines, {}, [tracemill, nfstream]).rows.map(cells);
    both.forEach((values, i) => {
      expect(values.slice(0, 50)).toEqual(tracemillAlone[i]);
      expect(values.slice(50)).toEqual(alone[i].slice(6));
    });
  });
});
