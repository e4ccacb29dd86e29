// tracemill label on public attack captures mixed into benign ones: labels checked against tshark's 5-tuples, and the
// provenance method of a `tracemill merge` output; multi-class on a unified2 fixture.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const captures = path.resolve(repoRoot, "test/fixtures/capture");
let dir = "";
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-label-cli-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every TCP/UDP conversation of a capture as tshark sees it: "proto addr:port addr:port", endpoints sorted. */
function tsharkTuples(capture: string): Set<string> {
  const fields = [
    "ip.src",
    "ipv6.src",
    "ip.dst",
    "ipv6.dst",
    "tcp.srcport",
    "tcp.dstport",
    "udp.srcport",
    "udp.dstport",
  ];
  const result = spawnSync(
    "tshark",
    [
      "-n",
      "-r",
      capture,
      "-Y",
      "(tcp or udp) and not icmp and not icmpv6",
      "-T",
      "fields",
      ...fields.flatMap((f) => ["-e", f]),
    ],
    {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  expect(result.status, result.stderr).toBe(0);
  const tuples = new Set<string>();
  for (const line of result.stdout.split("\n")) {
    if (line.trim() === "") continue;
    const [src4, src6, dst4, dst6, tsp, tdp, usp, udp] = line.split("\t");
    const proto = tsp ? 6 : 17;
    tuples.add(tupleKey(proto, src4 || src6, Number(tsp || usp), dst4 || dst6, Number(tdp || udp)));
  }
  return tuples;
}

function tupleKey(proto: number, a: string, aPort: number, b: string, bPort: number): string {
  const ends = [`${a} ${aPort}`, `${b} ${bPort}`].sort();
  return `${proto} ${ends[0]} ${ends[1]}`;
}

function readCsv(file: string): Record<string, string>[] {
  const [header, ...rows] = fs.readFileSync(file, "utf8").trimEnd().split("\n");
  const names = header.split(",");
  return rows.map((row) => Object.fromEntries(row.split(",").map((value, i) => [names[i], value])));
}

function rowKey(row: Record<string, string>): string {
  return tupleKey(Number(row.protocol), row.srcIP, Number(row.srcPrt), row.dstIP, Number(row.dstPrt));
}

describe("tracemill label --attacks", () => {
  for (const [benign, attack] of [
    ["benign/http-bro-org.pcap", "attacks/log4shell-exploit.pcap"],
    ["benign/ssh-normal-kali.pcap", "attacks/hydra-bruteforce.pcapng"],
  ]) {
    it(`labels ${path.basename(attack)} mixed into ${path.basename(benign)} exactly as tshark's 5-tuples say`, () => {
      const attackFile = path.join(captures, attack);
      const mixed = path.join(dir, `${path.basename(benign)}+${path.basename(attack)}.pcapng`);
      const merge = spawnSync("mergecap", ["-w", mixed, path.join(captures, benign), attackFile], { encoding: "utf8" });
      expect(merge.status, merge.stderr).toBe(0);
      const out = path.join(dir, `${path.basename(attack)}.csv`);
      const summaryFile = path.join(dir, `${path.basename(attack)}.json`);
      const result = runCli(["label", mixed, "--attacks", attackFile, "-o", out, "--summary", summaryFile]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toContain("labelled by 5-tuples of");
      const attackTuples = tsharkTuples(attackFile);
      const rows = readCsv(out);
      const expected = rows.map((row) => (attackTuples.has(rowKey(row)) ? "1" : "0"));
      expect(rows.map((row) => row.label)).toEqual(expected);
      expect(expected).toContain("1");
      expect(expected).toContain("0");
      const summary = JSON.parse(fs.readFileSync(summaryFile, "utf8"));
      expect(summary.labels.method).toBe("tuples");
      expect(summary.labels.sessions["1"]).toBe(expected.filter((l) => l === "1").length);
      expect(summary.labels.attackTuplesWithoutSession).toBe(0);
    });
  }

  it("uses the provenance record of a tracemill merge output, and says so", () => {
    const merged = path.join(dir, "merged.pcap");
    const merge = runCli([
      "merge",
      path.join(captures, "benign/wikipedia-browse.pcap"),
      path.join(captures, "attacks/eternalblue-scan.pcap"),
      "-o",
      merged,
    ]);
    expect(merge.status, merge.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, "merged.provenance.jsonl"))).toBe(true);
    const out = path.join(dir, "merged-labels.csv");
    const result = runCli(["label", merged, "-o", out]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("labelled by provenance record merged.provenance.jsonl (exact)");
    const attackTuples = tsharkTuples(path.join(captures, "attacks/eternalblue-scan.pcap"));
    const rows = readCsv(out);
    expect(rows.map((row) => row.label)).toEqual(rows.map((row) => (attackTuples.has(rowKey(row)) ? "1" : "0")));
    expect(rows.some((row) => row.label === "1")).toBe(true);
  });

  it("exits 1 with a message for a missing attack capture, 2 for a bad option value", () => {
    const missing = runCli([
      "label",
      path.join(captures, "benign/dns53.pcap"),
      "--attacks",
      path.join(dir, "nope.pcap"),
      "-o",
      path.join(dir, "x.csv"),
    ]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^tracemill: .*nope\.pcap/);
    const bad = runCli([
      "label",
      path.join(captures, "benign/dns53.pcap"),
      "--alerts",
      "x.u2",
      "--max-priority",
      "high",
    ]);
    expect(bad.status).toBe(2);
  });
});

describe("tracemill label --alerts", () => {
  it("labels by class from a unified2 file and lists the alerts that matched no session", () => {
    const fixtures = path.join(repoRoot, "test/fixtures/alerts");
    const out = path.join(dir, "classified.csv");
    const result = runCli([
      "label",
      path.join(captures, "benign/dns53.pcap"),
      "--alerts",
      path.join(fixtures, "pyidstools_merged.u2"),
      "--classification",
      path.join(fixtures, "pyidstools_classification.config"),
      "-o",
      out,
    ]);
    expect(result.status, result.stderr).toBe(0);
    const rows = readCsv(out);
    expect(rows.map((row) => [row.label, row.class_id, row.class])).toEqual([["0", "0", "benign"]]);
    expect(result.stderr).toContain("6 read, 0 above the maximum priority, 0 matched, 6 matched no session");
    expect(result.stderr).toContain("172.16.1.10:80 → 172.16.1.11:39376 sig 1:498 priority 2 bad-unknown");
  });
});
