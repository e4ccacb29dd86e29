// Labelling end to end on synthetic captures: 5-tuples, provenance and alerts (EVE and the unified2 fixtures).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CapturedPacket, formatIpAddress, readUnified2 } from "@tracemill/core";
import { afterEach, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, ipv6, pcapFile, tcp, udp } from "../../../core/src/testing/index.js";
import { DEFAULT_CLASSIFICATION } from "../labels/create-labeller.js";
import { labelCapture } from "./label-capture.js";

const fixtures = path.resolve(import.meta.dirname, "../../../../test/fixtures/alerts");
const ACK = 0x10;

function tcpAt(time: number, src: string, srcPort: number, dst: string, dstPort: number): CapturedPacket {
  const frame = ethernet(ipv4({ src, dst }, tcp({ srcPort, dstPort, flags: ACK })));
  return packetAt(time, frame);
}

function udpAt(time: number, src: string, srcPort: number, dst: string, dstPort: number): CapturedPacket {
  return packetAt(time, ethernet(ipv4({ src, dst }, udp({ srcPort, dstPort }))));
}

/** `time` in seconds since the epoch, exact to the microsecond. */
function packetAt(time: number, frame: Uint8Array): CapturedPacket {
  const micro = Math.round(time * 1e6);
  const tsSec = Math.floor(micro / 1e6);
  return capturedPacket(frame, { linkType: 1, tsSec, tsNsec: (micro - tsSec * 1e6) * 1000 });
}

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = "";
});

function workspace(): { outDir: string; file: (name: string, bytes: Uint8Array | string) => string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-label-"));
  const outDir = path.join(dir, "out");
  fs.mkdirSync(outDir);
  return {
    outDir,
    file(name, bytes) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      return file;
    },
  };
}

/** The CSV's rows as objects keyed by column name. */
function readCsv(file: string): Record<string, string>[] {
  const [header, ...rows] = fs.readFileSync(file, "utf8").trimEnd().split("\n");
  const names = header.split(",");
  return rows.map((row) => Object.fromEntries(row.split(",").map((value, i) => [names[i], value])));
}

const T = 1_700_000_000;
/** Three sessions: A (TCP, 3 packets), B (UDP, 1 packet), C (TCP, 2 packets), starting in that order. */
const background = [
  tcpAt(T, "10.0.0.1", 1000, "10.0.0.2", 80),
  udpAt(T + 0.1, "10.0.0.3", 53, "10.0.0.4", 5353),
  tcpAt(T + 1, "10.0.0.2", 80, "10.0.0.1", 1000),
  tcpAt(T + 2, "10.0.0.1", 1000, "10.0.0.2", 80),
  tcpAt(T + 3, "10.0.0.1", 1001, "10.0.0.2", 80),
  tcpAt(T + 4, "10.0.0.2", 80, "10.0.0.1", 1001),
];

describe("labelCapture with an attack capture (5-tuples)", () => {
  it("labels the sessions whose 5-tuple occurs in the attack capture in either direction", async () => {
    const w = workspace();
    const capture = w.file("capture.pcap", pcapFile(background));
    const attacks = w.file(
      "attacks.pcap",
      pcapFile([tcpAt(T + 500, "10.0.0.2", 80, "10.0.0.1", 1000), udpAt(T + 501, "10.9.9.9", 1, "10.0.0.4", 2)]),
    );
    const result = await labelCapture(capture, { attacks }, { outDir: w.outDir });
    const rows = readCsv(path.join(w.outDir, "labelled.csv"));
    expect(rows.map((r) => [r.srcIP, r.srcPrt, r.label])).toEqual([
      ["10.0.0.1", "1000", "1"],
      ["10.0.0.3", "53", "0"],
      ["10.0.0.1", "1001", "0"],
    ]);
    expect(Object.keys(rows[0]).at(-1)).toBe("label");
    expect(Object.keys(rows[0])).toHaveLength(51);
    expect(result.summary.labels).toMatchObject({
      method: "tuples",
      attackTuples: 2,
      attackTuplesWithoutSession: 1,
      sessions: { "0": 2, "1": 1 },
    });
    expect(result.outputs).toEqual([
      { name: "labelled.csv", kind: "labelled-csv" },
      { name: "summary.json", kind: "summary-json" },
    ]);
  });

  it("refuses to run without attacks, alerts or provenance, and with both attacks and alerts", async () => {
    const w = workspace();
    const capture = w.file("capture.pcap", pcapFile(background));
    await expect(labelCapture(capture, {}, { outDir: w.outDir })).rejects.toMatchObject({ code: "BAD_OPTION" });
    await expect(
      labelCapture(capture, { attacks: capture, alerts: capture }, { outDir: w.outDir }),
    ).rejects.toMatchObject({ code: "BAD_OPTION" });
  });
});

describe("labelCapture with a merge provenance record", () => {
  /** Packets 2, 3 and 5 came from the attack input; packet 5 joins background session A. */
  const merged = [
    tcpAt(T, "10.0.0.1", 1000, "10.0.0.2", 80),
    tcpAt(T + 0.5, "10.0.0.2", 80, "10.0.0.1", 1000),
    tcpAt(T + 1, "10.6.6.6", 4444, "10.0.0.2", 445),
    tcpAt(T + 1.5, "10.0.0.2", 445, "10.6.6.6", 4444),
    udpAt(T + 2, "10.0.0.3", 53, "10.0.0.4", 5353),
    tcpAt(T + 3, "10.0.0.1", 1000, "10.0.0.2", 80),
  ];
  function provenance(packets: [number, number]): string {
    const input = (id: number, role: string, file: string, count: number) => ({
      id,
      role,
      file,
      sha256: "0".repeat(64),
      bytes: 0,
      packets: count,
      first: null,
      last: null,
      outOfOrderPackets: 0,
      maxLatenessNs: "0",
    });
    const header = {
      format: "tracemill-merge-provenance",
      version: 1,
      output: { file: "merged.pcap", format: "pcap" },
      inputs: [input(0, "background", "background.pcap", packets[0]), input(1, "attacks", "attacks.pcap", packets[1])],
      shiftNs: "0",
      insertion: { mode: "midpoint", firstAttackPacketAt: null },
      mappings: [],
      tieOrder: "background-first",
    };
    const runs = [
      [0, 0, 0, 2],
      [1, 2, 0, 2],
      [0, 4, 2, 1],
      [1, 5, 2, 1],
    ];
    const lines = [header, ...runs, { end: true, packets: 6, runs: 4 }];
    return lines
      .map((line) => JSON.stringify(line))
      .join("\n")
      .concat("\n");
  }

  it("labels exactly the sessions holding a packet from the attack input, found beside the capture", async () => {
    const w = workspace();
    const capture = w.file("merged.pcap", pcapFile(merged));
    w.file("merged.provenance.jsonl", provenance([3, 3]));
    const result = await labelCapture(capture, {}, { outDir: w.outDir });
    const rows = readCsv(path.join(w.outDir, "labelled.csv"));
    expect(rows.map((r) => [r.srcIP, r.label])).toEqual([
      ["10.0.0.1", "1"],
      ["10.6.6.6", "1"],
      ["10.0.0.3", "0"],
    ]);
    expect(result.summary.labels).toMatchObject({
      method: "provenance",
      provenanceFile: "merged.provenance.jsonl",
      attackInput: "attacks.pcap",
      attackPacketsInProvenance: 3,
      attackPacketsInSessions: 3,
      sessions: { "0": 1, "1": 2 },
    });
  });

  it("falls back to 5-tuples when told not to use the record, and rejects a record of another capture", async () => {
    const w = workspace();
    const capture = w.file("merged.pcap", pcapFile(merged));
    w.file("merged.provenance.jsonl", provenance([4, 3]));
    await expect(labelCapture(capture, {}, { outDir: w.outDir })).rejects.toMatchObject({ code: "BAD_INPUT" });
    expect(fs.readdirSync(w.outDir)).toEqual([]);
    const attacks = w.file("attacks.pcap", pcapFile([merged[2]]));
    const result = await labelCapture(capture, { attacks, provenance: false }, { outDir: w.outDir });
    expect(result.summary.labels).toMatchObject({ method: "tuples", sessions: { "0": 2, "1": 1 } });
  });
});

describe("labelCapture with alerts", () => {
  const classification = path.join(fixtures, "pyidstools_classification.config");

  function eve(time: number, proto: string, src: string, sport: number, dst: string, dport: number, more: object) {
    const stamp = new Date(time * 1000).toISOString().replace("Z", "+0000");
    return JSON.stringify({
      timestamp: stamp,
      event_type: "alert",
      src_ip: src,
      src_port: sport,
      dest_ip: dst,
      dest_port: dport,
      proto,
      alert: { gid: 1, signature_id: 1, rev: 1, signature: "test", ...more },
    });
  }

  it("lets the highest priority decide, honours max priority, and lists unmatched alerts", async () => {
    const w = workspace();
    const capture = w.file("capture.pcap", pcapFile(background));
    const alerts = w.file(
      "eve.json",
      [
        eve(T + 1.5, "TCP", "10.0.0.2", 80, "10.0.0.1", 1000, { category: "Potentially Bad Traffic", severity: 2 }),
        eve(T + 1, "TCP", "10.0.0.1", 1000, "10.0.0.2", 80, { category: "Web Application Attack", severity: 1 }),
        eve(T + 5.5, "TCP", "10.0.0.2", 80, "10.0.0.1", 1001, { category: "Potentially Bad Traffic", severity: 2 }),
        eve(T + 3, "ICMP", "10.0.0.1", 0, "10.0.0.2", 0, { category: "Misc activity", severity: 2 }),
        eve(T + 0.1, "UDP", "10.0.0.3", 53, "10.0.0.4", 5353, { category: "Misc activity", severity: 3 }),
        JSON.stringify({ timestamp: "2023-11-14T22:13:20.000000+0000", event_type: "flow" }),
      ].join("\n"),
    );
    const result = await labelCapture(capture, { alerts, classification, maxPriority: 2 }, { outDir: w.outDir });
    const rows = readCsv(path.join(w.outDir, "classified.csv"));
    expect(rows.map((r) => [r.srcPrt, r.label, r.class_id, r.class])).toEqual([
      ["1000", "1", "28", "web-application-attack"],
      ["53", "0", "0", "benign"],
      ["1001", "0", "0", "benign"],
    ]);
    const labels = result.summary.labels as Record<string, unknown>;
    expect(labels).toMatchObject({
      method: "alerts",
      format: "eve",
      alertsRead: 5,
      ignoredByPriority: 1,
      matchedAlerts: 2,
      unmatchedAlerts: 2,
      sessions: { "0": 2, "1": 1 },
      classes: { "web-application-attack": 1, benign: 2 },
    });
    expect(labels.unmatched).toEqual([
      expect.objectContaining({ protocol: 6, srcPort: 80, dstPort: 1001, class: "bad-unknown", priority: 2 }),
      expect.objectContaining({ protocol: 1, src: "10.0.0.1", class: "misc-activity" }),
    ]);
    expect(result.outputs[0]).toEqual({ name: "classified.csv", kind: "classified-csv" });
  });

  /** Sessions around the six events of pyidstools_merged.u2 (TCP 172.16.1.10:80 ↔ 172.16.1.11:39376…39386). */
  const E = 1_373_924_958;
  const server = (time: number, port: number) => tcpAt(time, "172.16.1.10", 80, "172.16.1.11", port);
  const client = (time: number, port: number) => tcpAt(time, "172.16.1.11", port, "172.16.1.10", 80);
  const u2Capture = [
    client(E, 39376),
    udpAt(E + 0.1, "172.16.1.11", 5000, "172.16.1.1", 53),
    server(E + 0.5, 39376),
    client(E + 0.6, 39378),
    server(E + 0.7, 39378),
    server(E + 0.987319, 39380),
    client(E + 1.0, 39382),
    server(E + 1.1, 39382),
    client(E + 12, 39384),
  ];

  it("matches the events of a unified2 file within the session and the tolerance, with the file's classes", async () => {
    const w = workspace();
    const capture = w.file("capture.pcap", pcapFile(u2Capture));
    const alerts = path.join(fixtures, "pyidstools_merged.u2");
    const result = await labelCapture(capture, { alerts, classification }, { outDir: w.outDir });
    const rows = readCsv(path.join(w.outDir, "classified.csv"));
    expect(rows.map((r) => [r.dstPrt === "53" ? "dns" : r.srcPrt, r.label, r.class_id, r.class])).toEqual([
      ["39376", "1", "3", "bad-unknown"],
      ["dns", "0", "0", "benign"],
      ["39378", "1", "3", "bad-unknown"],
      ["80", "1", "3", "bad-unknown"],
      ["39382", "1", "3", "bad-unknown"],
      ["39384", "0", "0", "benign"],
    ]);
    const labels = result.summary.labels as Record<string, unknown>;
    expect(labels).toMatchObject({ format: "unified2", alertsRead: 6, matchedAlerts: 4, unmatchedAlerts: 2 });
    expect((labels.unmatched as { dstPort: number }[]).map((a) => a.dstPort)).toEqual([39384, 39386]);
    expect((labels.unmatched as { time: string }[])[0].time).toBe("2013-07-15T21:49:19.579139Z");
  });

  it("matches only inside the session with a zero tolerance, and names classes by the default classification", async () => {
    const w = workspace();
    const capture = w.file("capture.pcap", pcapFile(u2Capture));
    const alerts = path.join(fixtures, "pyidstools_merged.u2");
    const result = await labelCapture(capture, { alerts, tolerance: 0 }, { outDir: w.outDir });
    const rows = readCsv(path.join(w.outDir, "classified.csv"));
    // Class 3 is bad-unknown in Suricata's classification.config, and in Snort's.
    expect(rows.map((r) => [r.label, r.class_id, r.class])).toEqual([
      ["1", "3", "bad-unknown"],
      ["0", "0", "benign"],
      ["0", "0", "benign"],
      ["1", "3", "bad-unknown"],
      ["0", "0", "benign"],
      ["0", "0", "benign"],
    ]);
    expect((result.summary.labels as { classification: string }).classification).toBe(DEFAULT_CLASSIFICATION);
  });

  it("names a class the classification does not list by its number", async () => {
    const w = workspace();
    const capture = w.file("capture.pcap", pcapFile(u2Capture));
    // The same alerts with classification id 99 in every event record (the body's eighth 4-byte field).
    const bytes = Buffer.from(fs.readFileSync(path.join(fixtures, "pyidstools_merged.u2")));
    for (let at = 0; at + 8 <= bytes.length; at += 8 + bytes.readUInt32BE(at + 4)) {
      if ([7, 104].includes(bytes.readUInt32BE(at))) bytes.writeUInt32BE(99, at + 8 + 28);
    }
    const alerts = w.file("class-99.u2", bytes);
    await labelCapture(capture, { alerts }, { outDir: w.outDir });
    const classes = readCsv(path.join(w.outDir, "classified.csv")).map((r) => r.class);
    expect(classes.filter((c) => c !== "benign")).toEqual([
      "classtype-99",
      "classtype-99",
      "classtype-99",
      "classtype-99",
    ]);
  });

  it("reports an ICMPv6 unified2 event as unmatched: sessions are TCP/UDP only", async () => {
    const w = workspace();
    const frame = ethernet(
      ipv6({ src: "fe80::dacb:8aff:feed:a146", dst: "fe80::215:17ff:fe0d:6f7" }, udp({ srcPort: 1, dstPort: 2 })),
    );
    const capture = w.file("capture.pcap", pcapFile([packetAt(1_478_015_404.918528, frame)]));
    const alerts = path.join(fixtures, "pyidstools_ipv6-alert.unified2");
    const result = await labelCapture(capture, { alerts, classification }, { outDir: w.outDir });
    expect(readCsv(path.join(w.outDir, "classified.csv")).map((r) => r.label)).toEqual(["0"]);
    expect(result.summary.labels).toMatchObject({
      unmatchedAlerts: 1,
      unmatched: [{ protocol: 58, src: "fe80::dacb:8aff:feed:a146", signature: "1:18474", class: "misc-activity" }],
    });
  });

  it("labels every TCP/UDP event of Snort's legacy unified2 log and reports each ICMP one", async () => {
    const w = workspace();
    const alerts = path.join(fixtures, "snort_unified2-legacy.u2");
    const events = readUnified2(fs.readFileSync(alerts)).flatMap((r) => (r.kind === "event" ? [r] : []));
    const packets = events
      .filter((e) => e.protocol === 6 || e.protocol === 17)
      .sort((a, b) => a.eventSecond - b.eventSecond || a.eventMicrosecond - b.eventMicrosecond)
      .map((e) => {
        const time = e.eventSecond + e.eventMicrosecond / 1e6;
        const at = e.protocol === 6 ? tcpAt : udpAt;
        return at(time, formatIpAddress(e.src), e.srcPort, formatIpAddress(e.dst), e.dstPort);
      });
    expect(packets).toHaveLength(53);
    const capture = w.file("capture.pcap", pcapFile(packets));
    const result = await labelCapture(capture, { alerts }, { outDir: w.outDir });
    const rows = readCsv(path.join(w.outDir, "classified.csv"));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.label === "1" && r.class_id !== "0")).toBe(true);
    const labels = result.summary.labels as { unmatchedAlerts: number; unmatched: { protocol: number }[] };
    expect(labels.unmatchedAlerts).toBe(4650);
    expect(labels.unmatched.every((a) => a.protocol === 1)).toBe(true);
    expect(result.summary.labels).toMatchObject({ alertsRead: 4703, matchedAlerts: 53 });
  });

  it("reads the event of a multi-record unified2 file (event, 15 packets, extra data) and fails on a cut one", async () => {
    const w = workspace();
    // The event: gid 120 sid 3, TCP 207.25.71.28:80 → 10.20.11.123:2651 at 964798804.267362 (checked by hand).
    const capture = w.file(
      "capture.pcap",
      pcapFile([
        tcpAt(964_798_804.2, "10.20.11.123", 2651, "207.25.71.28", 80),
        tcpAt(964_798_804.3, "207.25.71.28", 80, "10.20.11.123", 2651),
      ]),
    );
    const alerts = path.join(fixtures, "pyidstools_multi-record-event.u2");
    const result = await labelCapture(capture, { alerts, classification }, { outDir: w.outDir });
    expect(readCsv(path.join(w.outDir, "classified.csv")).map((r) => [r.label, r.class_id, r.class])).toEqual([
      ["1", "2", "unknown"],
    ]);
    expect(result.summary.labels).toMatchObject({ alertsRead: 1, matchedAlerts: 1, unmatchedAlerts: 0 });
    // The same file cut 12 bytes in: the event's header announces 60 bytes, 4 are there.
    const cutFile = w.file("cut.u2", fs.readFileSync(alerts).subarray(0, 12));
    const cut = labelCapture(capture, { alerts: cutFile }, { outDir: w.outDir });
    await expect(cut).rejects.toMatchObject({ code: "DAMAGED_INPUT" });
  });
});
