// A dataset built end to end on synthetic captures whose every session's label is known by construction: schedule
// windows (local time), an attack capture, an alert file, their precedence and conflict; the split invariants; the
// card; a rebuild from dataset.json giving the same bytes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CapturedPacket } from "@tracemill/core";
import { parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../core/src/testing/index.js";
import { buildDataset } from "./build/build-dataset.js";
import { loadSpec, parseSpec } from "./spec/load-spec.js";

/** 2017-07-04 09:20 in Halifax (UTC-3 in July) is 12:20 UTC; a window ending "10:20" holds that minute: until 13:21. */
const W0 = Date.UTC(2017, 6, 4, 12, 20) / 1000;
const W1 = Date.UTC(2017, 6, 4, 13, 21) / 1000;

/** The card's `built`, as far as these tests read it. */
interface Built {
  labels: { conflicts: Record<string, number>; precedence: string[] };
  classes: Record<string, number>;
  caveats: string[];
  splits: { byClass: Record<string, number> }[];
  splitWarnings: string[];
  audit: {
    flagged: string[];
    rows: {
      column: string;
      balancedAccuracy: number;
      binaryBalancedAccuracy: number;
      flagged: boolean;
      detail: string;
    }[];
  };
}

interface Expected {
  key: string;
  className: string;
  source: string;
  fraction: number;
  rule: string;
}

function packet(time: number, src: string, sport: number, dst: string, dport: number, payload = 0): CapturedPacket {
  const frame = ethernet(ipv4({ src, dst }, tcp({ srcPort: sport, dstPort: dport, payload: new Uint8Array(payload) })));
  const micro = Math.round(time * 1e6);
  const tsSec = Math.floor(micro / 1e6);
  return capturedPacket(frame, { linkType: 1, tsSec, tsNsec: (micro - tsSec * 1e6) * 1000 });
}

/** A session of `count` packets one second apart, alternating directions, the first from `src`. */
function session(t: number, src: string, sport: number, dst: string, dport: number, count: number): CapturedPacket[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? packet(t + i, src, sport, dst, dport, 10) : packet(t + i, dst, dport, src, sport, 10),
  );
}

let dir = "";
const expected = new Map<string, Expected>();
const packets: CapturedPacket[] = [];
const attackPackets: CapturedPacket[] = [];

function add(list: CapturedPacket[], e: Expected) {
  packets.push(...list);
  expected.set(e.key, e);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-dataset-"));
  // Benign pairs: each client talks to its own server, so every pair is a group of hosts of its own.
  for (let i = 0; i < 200; i++) {
    const client = `10.1.0.${i + 1}`;
    add(session(W0 - 3000 + i * 30, client, 40000 + i, `10.2.0.${i + 1}`, 80, 2), {
      key: `${client}:${40000 + i}`,
      className: "benign",
      source: "",
      fraction: 0,
      rule: "",
    });
  }
  // The schedule's window: four attackers, four victims, port 21.
  for (let k = 0; k < 40; k++) {
    const attacker = `172.16.0.${(k % 4) + 1}`;
    add(session(W0 + 60 + k * 80, attacker, 50000 + k, `192.168.10.${50 + (k % 4)}`, 21, 5), {
      key: `${attacker}:${50000 + k}`,
      className: "FTP-Patator",
      source: "schedule",
      fraction: 1,
      rule: "ftp",
    });
  }
  // Across the window's end: two of its five packets inside.
  add(session(W1 - 2, "172.16.0.1", 50100, "192.168.10.50", 21, 5), {
    key: "172.16.0.1:50100",
    className: "FTP-Patator",
    source: "schedule",
    fraction: 0.4,
    rule: "ftp",
  });
  // The attack capture's conversations (class DoS), after the window.
  for (let k = 0; k < 10; k++) {
    const list = session(W1 + 400 + k * 50, "172.16.0.9", 51000 + k, "192.168.10.60", 80, 5);
    attackPackets.push(...list.slice(0, 1));
    add(list, { key: `172.16.0.9:${51000 + k}`, className: "DoS", source: "tuples", fraction: 1, rule: "dos.pcap" });
  }
  // In the window and in the attack capture: the attack capture wins (precedence), one conflict.
  const both = session(W0 + 100.5, "172.16.0.1", 52000, "192.168.10.50", 21, 5);
  attackPackets.push(both[0]);
  add(both, { key: "172.16.0.1:52000", className: "DoS", source: "tuples", fraction: 1, rule: "dos.pcap" });
  // One benign-looking session an alert names.
  expected.set("10.1.0.8:40007", {
    key: "10.1.0.8:40007",
    className: "web-application-attack",
    source: "alerts",
    fraction: 1,
    rule: "1:2001",
  });
  packets.sort((a, b) => a.tsSec - b.tsSec || a.tsNsec - b.tsNsec);
  fs.writeFileSync(path.join(dir, "lab.pcap"), pcapFile(packets));
  fs.writeFileSync(path.join(dir, "dos.pcap"), pcapFile(attackPackets));
  const alert = (time: number, src: string, sport: number, dst: string, dport: number) =>
    JSON.stringify({
      timestamp: new Date(time * 1000).toISOString().replace("Z", "+0000"),
      event_type: "alert",
      src_ip: src,
      src_port: sport,
      dest_ip: dst,
      dest_port: dport,
      proto: "TCP",
      alert: { gid: 1, signature_id: 2001, rev: 1, signature: "test", category: "Web Application Attack", severity: 1 },
    });
  fs.writeFileSync(
    path.join(dir, "eve.json"),
    `${[alert(W0 - 3000 + 7 * 30, "10.1.0.8", 40007, "10.2.0.8", 80), alert(W0, "10.9.9.9", 1, "10.9.9.8", 2)].join("\n")}\n`,
  );
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function spec(split: string): string {
  return `
name: lab week
captures: [lab.pcap]
features: [tracemill, cic]
labels:
  attacks:
    - { path: dos.pcap, class: DoS }
  alerts:
    - { path: eve.json }
  schedule:
    timezone: America/Halifax
    windows:
      - id: ftp
        class: FTP-Patator
        start: "2017-07-04 09:20"
        end: "2017-07-04 10:20"
        attackers: [172.16.0.0/29]
        victims: [192.168.10.50, 192.168.10.51, 192.168.10.52, 192.168.10.53]
        ports: [21]
split:
${split}
`;
}

async function build(name: string, text: string, dropFlagged?: boolean) {
  const specFile = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(specFile, text);
  const outDir = path.join(dir, name);
  fs.mkdirSync(outDir);
  const result = await buildDataset(await loadSpec(specFile), { dropFlagged }, { outDir });
  return { outDir, result };
}

async function rows(file: string): Promise<Record<string, unknown>[]> {
  const buffer = fs.readFileSync(file);
  const arrayBuffer = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  return parquetReadObjects({ file: arrayBuffer, compressors });
}

describe("a dataset built from a spec", () => {
  it("labels every session as its sources say, with their provenance, and counts the conflict", async () => {
    const { outDir, result } = await build("random", spec("  method: random\n  seed: 7"));
    const all = [
      ...(await rows(path.join(outDir, "train.parquet"))),
      ...(await rows(path.join(outDir, "test.parquet"))),
    ];
    expect(all).toHaveLength(expected.size);
    for (const row of all) {
      const want = expected.get(`${row.srcIP}:${row.srcPrt}`);
      expect(want, `${row.srcIP}:${row.srcPrt}`).toBeDefined();
      expect([row.class, row.label_source, row.label_rule, row.label]).toEqual([
        want!.className,
        want!.source,
        want!.rule,
        want!.className === "benign" ? 0n : 1n,
      ]);
      expect(row.label_fraction).toBeCloseTo(want!.fraction, 9);
      expect(row.capture).toBe("lab.pcap");
    }
    const built = result.summary as unknown as Built;
    expect(built.labels.conflicts).toEqual({ "tuples>schedule": 1 });
    expect(built.labels.precedence).toEqual(["tuples", "schedule", "alerts"]);
    expect(built.classes).toEqual({ benign: 199, "FTP-Patator": 41, DoS: 11, "web-application-attack": 1 });
    expect(built.caveats).toContain("1 alerts of eve.json matched no session.");
  });

  it("splits stratified by class within one session of the target", async () => {
    const { result } = await build("stratified", spec("  method: random\n  seed: 3"));
    const built = result.summary as unknown as Built;
    for (const [name, count] of Object.entries(built.classes as Record<string, number>)) {
      const test = built.splits[1].byClass[name];
      expect(Math.abs(test - 0.2 * count), name).toBeLessThanOrEqual(1);
      expect(built.splits[0].byClass[name] + test).toBe(count);
    }
  });

  it("keeps every address in one split with a host split", async () => {
    const { outDir } = await build("host", spec("  method: host\n  seed: 5"));
    const train = await rows(path.join(outDir, "train.parquet"));
    const test = await rows(path.join(outDir, "test.parquet"));
    const hosts = (list: Record<string, unknown>[]) => new Set(list.flatMap((r) => [r.srcIP, r.dstIP]));
    const inTrain = hosts(train);
    for (const host of hosts(test)) expect(inTrain.has(host), String(host)).toBe(false);
    expect(train.length + test.length).toBe(expected.size);
    expect(test.length).toBeGreaterThan(0);
  });

  it("puts train before test with a time split, the schedule's window whole in one split", async () => {
    const { outDir, result } = await build("time", spec("  method: time"));
    const train = await rows(path.join(outDir, "train.parquet"));
    const test = await rows(path.join(outDir, "test.parquet"));
    const start = (r: Record<string, unknown>) => new Date(r.ts as string | Date).getTime();
    expect(Math.max(...train.map(start))).toBeLessThanOrEqual(Math.min(...test.map(start)));
    expect(test.length).toBeGreaterThan(0);
    const ftp = (list: Record<string, unknown>[]) => list.filter((r) => r.label_rule === "ftp").length;
    expect([ftp(train), ftp(test)]).toContain(0);
    // The window ends after most sessions have started: the cut after it leaves the test split short, and says so.
    expect((result.summary as unknown as Built).splitWarnings.join(" ")).toMatch(/test/);
  });

  it("flags identifier columns by name, writes the card, and rebuilds the same bytes from dataset.json", async () => {
    const { outDir, result } = await build("card", spec("  method: random\n  seed: 11"), true);
    const built = result.summary as unknown as Built;
    for (const name of ["srcIP", "dstIP", "srcPrt", "dstPrt", "ts"]) expect(built.audit.flagged).toContain(name);
    // Benign sessions have one packet forward, attacks three (but the alert's): that column tells attack from benign,
    // though not the classes apart.
    const packets = built.audit.rows.find((r) => r.column === "total_fpackets")!;
    expect(packets.balancedAccuracy).toBeLessThan(0.9);
    expect(packets.binaryBalancedAccuracy).toBeGreaterThan(0.9);
    expect(packets.flagged).toBe(true);
    expect(packets.detail).toMatch(/^attack against benign: /);
    // A column every session has the same value of separates nothing.
    const urgent = built.audit.rows.find((r) => r.column === "furg_cnt")!;
    expect(urgent.flagged).toBe(false);
    const unflagged = await rows(path.join(outDir, "train.unflagged.parquet"));
    expect(Object.keys(unflagged[0])).not.toContain("srcIP");
    expect(Object.keys(unflagged[0])).toContain("class");
    const card = fs.readFileSync(path.join(outDir, "DATASET.md"), "utf8");
    expect(card).toContain("# lab week");
    expect(card).toContain("| srcIP |");
    const json = JSON.parse(fs.readFileSync(path.join(outDir, "dataset.json"), "utf8"));
    expect(json.captures[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    const again = path.join(dir, "card-again");
    fs.mkdirSync(again);
    await buildDataset(await loadSpec(path.join(outDir, "dataset.json")), {}, { outDir: again });
    for (const file of fs.readdirSync(outDir)) {
      expect(fs.readFileSync(path.join(again, file)).equals(fs.readFileSync(path.join(outDir, file))), file).toBe(true);
    }
  });

  it("refuses a capture whose SHA-256 is not the recorded one", async () => {
    const json = JSON.parse(fs.readFileSync(path.join(dir, "card", "dataset.json"), "utf8"));
    json.captures[0].sha256 = "0".repeat(64);
    const file = path.join(dir, "card", "wrong.json");
    fs.writeFileSync(file, JSON.stringify(json));
    const outDir = fs.mkdtempSync(path.join(dir, "wrong-"));
    await expect(buildDataset(await loadSpec(file), {}, { outDir })).rejects.toThrow(
      /captures\[0\]: lab.pcap has SHA-256 [0-9a-f]{64}, not the 0{64}/,
    );
  });
});

describe("the spec's errors", () => {
  it("name the line and the field", () => {
    expect(() => parseSpec("captures: [a.pcap]\nsplit:\n  method: sideways\n", "s.yaml")).toThrow(
      /^s\.yaml line 3: split\.method: /,
    );
    expect(() => parseSpec("captures: [a.pcap]\nfeatures: [tracemill]\ncolour: red\n", "s.yaml")).toThrow(
      /s\.yaml line 1: \(the whole spec\): unknown field colour|s\.yaml.*colour/,
    );
    expect(() => parseSpec("captures: []\n", "s.yaml")).toThrow(/captures: a dataset needs at least one capture/);
    expect(() => parseSpec("captures: [a.pcap\n", "s.yaml")).toThrow(/^s\.yaml line \d+, column \d+: /);
    expect(() =>
      parseSpec("captures: [a]\nsplit:\n  splits: [{name: train, fraction: 0.5}, {name: test, fraction: 0.4}]\n", "s"),
    ).toThrow(/split\.splits: the fractions must add up to 1/);
  });
});
