// The cic set, every column exactly, on sessions built here as arrays of packets: the expected values come from those
// arrays by the straightforward formulas of docs/features/cic.md (testing/cic-reference.ts), never from the groups.
import { describe, expect, it } from "vitest";
import { expectedCic, type RefSession, scenarioLines, tcpAt, udpAt } from "../testing/cic-reference.js";
import { runScenario } from "../testing/feature-scenario.js";
import { cic } from "./sets/cic.js";
import { tracemill } from "./sets/tracemill.js";

/** CIC-IDS2017's CSV header (TrafficLabelling, spaces after the commas trimmed), as published. */
const CIC_IDS2017_HEADER =
  "Flow ID,Source IP,Source Port,Destination IP,Destination Port,Protocol,Timestamp,Flow Duration,Total Fwd Packets," +
  "Total Backward Packets,Total Length of Fwd Packets,Total Length of Bwd Packets,Fwd Packet Length Max," +
  "Fwd Packet Length Min,Fwd Packet Length Mean,Fwd Packet Length Std,Bwd Packet Length Max,Bwd Packet Length Min," +
  "Bwd Packet Length Mean,Bwd Packet Length Std,Flow Bytes/s,Flow Packets/s,Flow IAT Mean,Flow IAT Std,Flow IAT Max," +
  "Flow IAT Min,Fwd IAT Total,Fwd IAT Mean,Fwd IAT Std,Fwd IAT Max,Fwd IAT Min,Bwd IAT Total,Bwd IAT Mean," +
  "Bwd IAT Std,Bwd IAT Max,Bwd IAT Min,Fwd PSH Flags,Bwd PSH Flags,Fwd URG Flags,Bwd URG Flags,Fwd Header Length," +
  "Bwd Header Length,Fwd Packets/s,Bwd Packets/s,Min Packet Length,Max Packet Length,Packet Length Mean," +
  "Packet Length Std,Packet Length Variance,FIN Flag Count,SYN Flag Count,RST Flag Count,PSH Flag Count," +
  "ACK Flag Count,URG Flag Count,CWE Flag Count,ECE Flag Count,Down/Up Ratio,Average Packet Size," +
  "Avg Fwd Segment Size,Avg Bwd Segment Size,Fwd Header Length.1,Fwd Avg Bytes/Bulk,Fwd Avg Packets/Bulk," +
  "Fwd Avg Bulk Rate,Bwd Avg Bytes/Bulk,Bwd Avg Packets/Bulk,Bwd Avg Bulk Rate,Subflow Fwd Packets," +
  "Subflow Fwd Bytes,Subflow Bwd Packets,Subflow Bwd Bytes,Init_Win_bytes_forward,Init_Win_bytes_backward," +
  "act_data_pkt_fwd,min_seg_size_forward,Active Mean,Active Std,Active Max,Active Min,Idle Mean,Idle Std,Idle Max," +
  "Idle Min,Label";
const FROM_KEY = ["Flow ID", "Source IP", "Source Port", "Destination IP", "Destination Port", "Protocol", "Timestamp"];
const COLUMNS = CIC_IDS2017_HEADER.split(",").filter(
  (name) => !FROM_KEY.includes(name) && name !== "Label" && name !== "Fwd Header Length.1",
);

/** CICFlowMeter's sessions: `--features cic` alone runs with the set's 120 s timeouts. */
const CIC_TIMEOUTS = { idleTimeoutNs: 120e9, activeTimeoutNs: 120e9 };

/** Runs the sessions through the cic set alone; each row's cic columns by name, and the end reasons. */
function run(sessions: RefSession[]) {
  const { rows, fullRows, reasons } = runScenario(scenarioLines(sessions), CIC_TIMEOUTS, [cic]);
  // The rows written from kept state and those finished afresh must agree (finish leaves the state as it is).
  expect(rows).toEqual(fullRows);
  const named = rows.map((row) => {
    const values = row.split(",").slice(6);
    expect(values).toHaveLength(COLUMNS.length);
    return Object.fromEntries(COLUMNS.map((name, i) => [name, values[i]]));
  });
  return { named, reasons, rows };
}

const client = "10.0.0.1:40000";
const server = "10.0.0.2:80";

describe("the cic set", () => {
  it("has the CIC-IDS2017 header's columns after the session key, in order, and CICFlowMeter's timeouts", () => {
    expect(cic.groups.flatMap((group) => group.columns.map((column) => column.name))).toEqual(COLUMNS);
    expect(COLUMNS).toHaveLength(76);
    expect(cic.defaults).toEqual({ activeTimeout: 120, idleTimeout: 120 });
  });

  it("keeps a TCP session to FIN from both sides and its last ACK: data after the first FIN, no appendix", () => {
    const packets = [
      tcpAt(0, ">", "S", 0, 64240, [20, 40]),
      tcpAt(1000, "<", "SA", 0, 65160, [20, 40]),
      tcpAt(1500, ">", "A", 0, 502),
      tcpAt(2000, ">", "PA", 300, 502),
      tcpAt(12000, "<", "A", 0, 509),
      tcpAt(30000, "<", "PA", 1200, 509),
      tcpAt(30500, "<", "UPA", 1448, 509),
      tcpAt(1_600_000, ">", "ECA", 0, 501),
      tcpAt(1_700_000, ">", "FA", 0, 501),
      tcpAt(1_700_400, "<", "PA", 17, 509),
      tcpAt(1_700_900, "<", "CFA", 0, 509),
      tcpAt(1_701_000, ">", "A", 0, 501),
    ];
    const { named, reasons } = run([{ protocol: "tcp", client, server, packets }]);
    expect(reasons).toEqual(["fin"]);
    expect(named).toEqual([expectedCic(packets)]);
    // Spot checks against hand arithmetic, beside the reference.
    expect(named[0]["Flow Duration"]).toBe("1701000");
    expect(named[0].Init_Win_bytes_backward).toBe("65160");
    expect(named[0].act_data_pkt_fwd).toBe("1");
    expect(named[0]["Subflow Fwd Packets"]).toBe("3");
  });

  it("ends a TCP session at a RST and keeps the late packets after it", () => {
    const packets = [
      tcpAt(0, ">", "S", 0, 29200, [20, 40]),
      tcpAt(250, "<", "SA", 0, 28960, [20, 40]),
      tcpAt(400, ">", "PA", 40, 229),
      tcpAt(900, "<", "RA", 0, 0, [20, 20]),
      tcpAt(1300, ">", "PA", 40, 229),
      tcpAt(1700, "<", "R", 0, 0, [20, 20]),
    ];
    const { named, reasons } = run([{ protocol: "tcp", client, server, packets }]);
    expect(reasons).toEqual(["rst"]);
    expect(named).toEqual([expectedCic(packets)]);
    expect(named[0]["RST Flag Count"]).toBe("2");
  });

  it("takes a capture starting at the SYN-ACK as opened by its receiver", () => {
    // The SYN-ACK goes backward: the backward window is its own, the forward one the first ACK's.
    const packets = [
      tcpAt(0, "<", "SA", 0, 65535, [20, 40]),
      tcpAt(80, ">", "A", 0, 1026),
      tcpAt(95, ">", "PA", 517, 1026),
      tcpAt(2500, "<", "A", 0, 1040),
    ];
    const { named } = run([{ protocol: "tcp", client, server, packets }]);
    expect(named).toEqual([expectedCic(packets)]);
    expect([named[0].Init_Win_bytes_forward, named[0].Init_Win_bytes_backward]).toEqual(["1026", "65535"]);
  });

  it("counts bulks of 4 payload packets or more, cut by the other side's payload and by gaps over 1 s", () => {
    const packets = [
      tcpAt(0, ">", "S", 0, 64240, [20, 40]),
      tcpAt(100, "<", "SA", 0, 65160, [20, 40]),
      // Forward: a run of 5 (a bulk) with pure ACKs between that do not break it.
      tcpAt(200, ">", "PA", 1000),
      tcpAt(300, ">", "A", 0),
      tcpAt(400, ">", "PA", 1100),
      tcpAt(450, "<", "A", 0),
      tcpAt(600, ">", "PA", 1200),
      tcpAt(900, ">", "PA", 1300),
      tcpAt(1_000_900, ">", "PA", 1400),
      // Backward payload ends it; forward runs of 3 (no bulk), then a gap over 1 s and 4 at one instant.
      tcpAt(1_001_000, "<", "PA", 10),
      tcpAt(1_001_100, ">", "PA", 50),
      tcpAt(1_001_200, ">", "PA", 60),
      tcpAt(1_001_300, ">", "PA", 70),
      tcpAt(2_100_000, ">", "PA", 80),
      tcpAt(2_100_000, ">", "PA", 80),
      tcpAt(2_100_000, ">", "PA", 80),
      tcpAt(2_100_000, ">", "PA", 80),
      // Backward: 4 then 1 s + 1 µs of silence, so 3 + 1: one bulk only.
      tcpAt(2_200_000, "<", "PA", 700),
      tcpAt(2_200_010, "<", "PA", 710),
      tcpAt(2_200_020, "<", "PA", 720),
      tcpAt(2_200_035, "<", "PA", 730),
      tcpAt(3_200_036, "<", "PA", 740),
    ];
    const { named } = run([{ protocol: "tcp", client, server, packets }]);
    expect(named).toEqual([expectedCic(packets)]);
    // Forward bulks: 5 packets (6000 bytes in 1 000 700 µs, its last gap exactly 1 s) and 4 at one instant (320 bytes
    // in 0 s): (6000 + 320) / 2 bytes, 6320 bytes / 1.0007 s.
    expect(named[0]["Fwd Avg Bytes/Bulk"]).toBe("3160");
    expect(named[0]["Fwd Avg Bulk Rate"]).toBe("6315.579095");
    expect(named[0]["Fwd Avg Packets/Bulk"]).toBe("4.5");
    expect(named[0]["Bwd Avg Packets/Bulk"]).toBe("4");
  });

  it("gives no bulk to runs of 3 payload packets", () => {
    const packets = [
      tcpAt(0, ">", "PA", 100),
      tcpAt(10, ">", "PA", 100),
      tcpAt(20, ">", "PA", 100),
      tcpAt(30, "<", "PA", 100),
      tcpAt(40, "<", "PA", 100),
      tcpAt(50, "<", "PA", 100),
      tcpAt(60, ">", "PA", 100),
    ];
    const { named } = run([{ protocol: "tcp", client, server, packets }]);
    expect(named).toEqual([expectedCic(packets)]);
    for (const label of ["Fwd", "Bwd"]) {
      expect(named[0][`${label} Avg Bytes/Bulk`]).toBe("0");
      expect(named[0][`${label} Avg Bulk Rate`]).toBe("0");
    }
  });

  it("cuts active and idle periods at gaps over 5 s: exactly 5 s stays active, the last period counts", () => {
    const packets = [
      udpAt(0, ">", 30),
      udpAt(1_000_000, "<", 40),
      udpAt(6_000_000, ">", 30),
      udpAt(11_000_001, "<", 40),
      udpAt(13_000_000, ">", 30),
      udpAt(20_000_000, "<", 40),
      udpAt(26_500_000, ">", 30),
      udpAt(27_250_000, ">", 30),
    ];
    const { named } = run([{ protocol: "udp", client: "10.0.0.3:5353", server: "10.0.0.4:53", packets }]);
    expect(named).toEqual([expectedCic(packets)]);
    // Active periods 6 s, 1.999999 s, 0 s (a lone packet), 0.75 s; idle 5.000001 s, 7 s, 6.5 s.
    expect(named[0]["Active Max"]).toBe("6000000");
    expect(named[0]["Active Min"]).toBe("0");
    expect(named[0]["Idle Min"]).toBe("5000001");
    expect(named[0]["Idle Max"]).toBe("7000000");
  });

  it("writes one-packet sessions of every kind from their own packet, never NaN or Infinity", () => {
    const sessions: RefSession[] = [
      { protocol: "tcp", client, server, packets: [tcpAt(0, ">", "S", 0, 64240, [20, 40])] },
      { protocol: "tcp", client: "10.0.0.5:40001", server, packets: [tcpAt(10, "<", "SA", 0, 65535, [20, 40])] },
      { protocol: "tcp", client: "10.0.0.6:40002", server, packets: [tcpAt(20, ">", "PA", 5, 300, [24, 32])] },
      { protocol: "udp", client: "10.0.0.7:5000", server: "10.0.0.8:53", packets: [udpAt(30, ">", 41)] },
      // The same packets again later: nothing of an earlier session leaks into a later one.
      { protocol: "tcp", client: "10.0.0.9:40003", server, packets: [tcpAt(40, ">", "PA", 7, 301, [24, 32])] },
      { protocol: "udp", client: "10.0.0.7:5001", server: "10.0.0.8:53", packets: [udpAt(50, ">", 0)] },
    ];
    const { named } = run(sessions);
    expect(named).toEqual(sessions.map((session) => expectedCic(session.packets)));
    for (const row of named) {
      // Numbers only; −1 only where a direction has no window (no packet that way, or UDP).
      for (const [name, value] of Object.entries(row)) {
        expect(value).toMatch(name.startsWith("Init_Win_bytes") ? /^(-1|\d+)$/ : /^\d+(\.\d+)?$/);
      }
    }
    expect(named[0]["Flow Bytes/s"]).toBe("0");
    expect(named[1].Init_Win_bytes_backward).toBe("65535");
  });

  it("computes UDP sessions both ways, with no flags and no windows", () => {
    const packets = [
      udpAt(0, ">", 33),
      udpAt(125, "<", 120),
      udpAt(126, "<", 96),
      udpAt(2_000_000, ">", 33),
      udpAt(2_000_210, "<", 120),
    ];
    const { named } = run([{ protocol: "udp", client: "10.0.0.3:5353", server: "10.0.0.4:53", packets }]);
    expect(named).toEqual([expectedCic(packets)]);
    expect(named[0].Init_Win_bytes_forward).toBe("-1");
    expect(named[0]["Subflow Bwd Bytes"]).toBe("168");
  });

  it("computes IPv6 sessions, with nanosecond times as fractional microseconds", () => {
    const packets = [
      tcpAt(0, ">", "S", 0, 64800, [40, 40]),
      tcpAt(12.345, "<", "SA", 0, 64260, [40, 40]),
      tcpAt(20.001, ">", "A", 0, 507, [40, 32]),
      tcpAt(31.5, ">", "PA", 77, 507, [48, 32]),
      tcpAt(80.25, "<", "PA", 1000, 503, [40, 32]),
    ];
    const sessions = [
      { protocol: "tcp" as const, client: "[2001:db8::1]:40000", server: "[2001:db8::2]:443", packets },
    ];
    const { named, rows } = run(sessions);
    expect(named).toEqual([expectedCic(packets)]);
    expect(named[0]["Flow Duration"]).toBe("80.25");
    // The smallest forward TCP header by hand: 40, 32, 32 bytes (the IPv6 header left out, as CICFlowMeter does).
    expect(named[0].min_seg_size_forward).toBe("32");
    expect(rows[0].split(",").slice(2, 5)).toEqual(["2001:db8::1", "40000", "2001:db8::2"]);
  });

  it("gives the same columns beside the tracemill set, which stays as it is alone", () => {
    const sessions: RefSession[] = [
      {
        protocol: "tcp",
        client,
        server,
        packets: [tcpAt(0, ">", "S", 0, 1, [20, 40]), tcpAt(5, "<", "SA", 0, 2, [20, 40]), tcpAt(9, ">", "PA", 9, 3)],
      },
      { protocol: "udp", client: "10.0.0.7:5000", server: "10.0.0.8:53", packets: [udpAt(3, ">", 41)] },
    ];
    const lines = scenarioLines(sessions);
    const both = runScenario(lines, CIC_TIMEOUTS, [tracemill, cic]).rows;
    const alone = runScenario(lines, CIC_TIMEOUTS, [tracemill]).rows;
    const cicAlone = runScenario(lines, CIC_TIMEOUTS, [cic]).rows;
    expect(both).toEqual(alone.map((row, i) => `${row},${cicAlone[i].split(",").slice(6).join(",")}`));
  });

  it("starts a new session 120 s after a session's first packet, as CICFlowMeter does", () => {
    const packets = [udpAt(0, ">", 10), udpAt(60e6, "<", 10), udpAt(120e6, ">", 10), udpAt(120e6 + 1, ">", 10)];
    const { named, reasons } = run([{ protocol: "udp", client: "10.0.0.3:5353", server: "10.0.0.4:53", packets }]);
    expect(reasons).toEqual(["active", "end-of-capture"]);
    expect(named).toEqual([expectedCic(packets.slice(0, 3)), expectedCic(packets.slice(3))]);
  });
});
