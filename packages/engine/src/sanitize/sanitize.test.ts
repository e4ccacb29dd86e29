// sanitize with the real Suricata: every suricata-verify case (alerts as Suricata 7.0.10 raised them, exact split,
// a clean capture that raises no alert) and the bundled ruleset on attack captures.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { type CapturedPacket, readUnified2, TcpFlag, type Timeline } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath, fixturesDir } from "../../../../test/helpers/fixtures.js";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../core/src/testing/index.js";
import { defaultRulesetDir, loadRuleset, suricataClassificationFile } from "../suricata/rulesets.js";
import { expectTimeline } from "../testing/timeline-check.js";
import { sanitize } from "./sanitize.js";
import { countAlerts, readPackets, splitDifference } from "./sanitize-testing.js";

const dirs: string[] = [];
function outDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sanitize-test-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const verifyDir = path.join(fixturesDir, "sanitize/suricata-verify");
const cases = fs.readdirSync(verifyDir).sort();

describe("sanitize on the suricata-verify cases", () => {
  it("has the cases", () => {
    expect(cases.length).toBe(16);
  });

  for (const name of cases) {
    it(name, async () => {
      const dir = path.join(verifyDir, name);
      const files = fs.readdirSync(dir);
      const capture = path.join(dir, files.find((f) => f.endsWith(".pcap")) as string);
      const ruleFiles = files.filter((f) => f.endsWith(".rules")).map((f) => path.join(dir, f));
      const observed = JSON.parse(fs.readFileSync(path.join(dir, "observed-suricata-7.0.10.json"), "utf8"));
      const out = outDir();
      const result = await sanitize(capture, { ruleFiles, verifyPasses: 0 }, { outDir: out });
      const summary = result.summary as unknown as SanitizeSummary;

      const bySid = Object.fromEntries(summary.alerts.bySignature.map((s) => [String(s.sid), s.alerts]));
      expect(bySid).toEqual(observed.alerts_by_sid);
      expect(summary.alerts.total).toBe(observed.alert_count_total);

      const [input, clean, attacks] = await Promise.all(
        [capture, path.join(out, "clean.pcap"), path.join(out, "attacks.pcap")].map(readPackets),
      );
      expect(splitDifference(input, clean, attacks)).toBe("");
      expect(summary.packets).toEqual({ input: input.length, clean: clean.length, attacks: attacks.length });
      if (summary.alerts.total > 0) expect(attacks.length).toBeGreaterThan(0);

      const u2 = readUnified2(new Uint8Array(fs.readFileSync(path.join(out, "alerts.u2"))));
      expect(u2.filter((r) => r.kind === "event").length).toBe(summary.alerts.total - summary.alerts.notInUnified2);

      if (clean.length > 0) {
        expect(await countAlerts(path.join(out, "clean.pcap"), ruleFiles, suricataClassificationFile)).toBe(0);
      }
    });
  }
});

describe("sanitize with the bundled ruleset", () => {
  it("moves a SYN scan and a brute force to attacks and leaves a clean capture that raises no alert", async () => {
    const out = outDir();
    const capture = fixturePath("hydra-bruteforce.pcapng");
    const result = await sanitize(capture, {}, { outDir: out });
    const summary = result.summary as unknown as SanitizeSummary;
    expect(result.outputs.map((o) => o.name)).toEqual([
      "clean.pcapng",
      "attacks.pcapng",
      "alerts.u2",
      "eve.json",
      "summary.json",
    ]);
    expect(summary.alerts.bySignature.map((s) => s.sid)).toContain(1100007);
    expect(summary.verified).toBe(true);
    // The summary names rule files without server paths (public jobs show it to other users).
    expect(summary.ruleset.ruleFiles.length).toBeGreaterThan(0);
    for (const name of [...summary.ruleset.ruleFiles, summary.ruleset.classificationFile])
      expect(name).not.toContain("/");
    const [input, clean, attacks] = await Promise.all(
      [capture, path.join(out, "clean.pcapng"), path.join(out, "attacks.pcapng")].map(readPackets),
    );
    expect(splitDifference(input, clean, attacks)).toBe("");
    const ruleset = await loadRuleset(defaultRulesetDir());
    expect(await countAlerts(path.join(out, "clean.pcapng"), ruleset.ruleFiles, ruleset.classificationFile)).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, "summary.json"), "utf8"))).toEqual(summary);
    // The timeline against each output's packet times as tshark reads them, and the alerts' times in eve.json.
    const { timeline } = result.summary as { timeline: Timeline };
    const times = (file: string) =>
      execFileSync("tshark", ["-r", file, "-T", "fields", "-e", "frame.time_epoch"], { encoding: "utf8" })
        .trim()
        .split("\n")
        .filter(Boolean)
        .map(Number);
    const alertTimes = fs
      .readFileSync(path.join(out, "eve.json"), "utf8")
      .trim()
      .split("\n")
      .map((line) => Date.parse(JSON.parse(line).timestamp.replace(/(\.\d{3})\d*/, "$1")) / 1000);
    expectTimeline(timeline, "clean", times(path.join(out, "clean.pcapng")));
    expectTimeline(timeline, "attacks", times(path.join(out, "attacks.pcapng")));
    expectTimeline(timeline, "alerts", alertTimes);
  });

  it("keeps a nanosecond pcap's precision and link type, even in an empty output", async () => {
    const out = outDir();
    const rules = path.join(out, "syn.rules");
    fs.writeFileSync(rules, 'alert tcp any any -> any any (msg:"SYN"; flags:S,12; sid:9; rev:1;)\n');
    const capture = fixturePath("pcap-le-ns_sll_tcp-handshake-nano.pcap");
    const result = await sanitize(capture, { ruleFiles: [rules] }, { outDir: out });
    expect(result.summary.packets).toEqual({ input: 3, clean: 0, attacks: 3 });
    for (const name of ["clean.pcap", "attacks.pcap"]) {
      const header = fs.readFileSync(path.join(out, name)).subarray(0, 24);
      expect(header.readUInt32LE(0), name).toBe(0xa1b23c4d);
      expect(header.readUInt32LE(20), name).toBe(113);
    }
    const [input, attacks] = await Promise.all([capture, path.join(out, "attacks.pcap")].map(readPackets));
    expect(splitDifference(input, [], attacks)).toBe("");
    expect(attacks.some((p) => p.tsNsec % 1000 !== 0)).toBe(true);
  });

  it("reads a gzip-compressed capture (Suricata cannot) and splits it like the plain one", async () => {
    const out = outDir();
    const dir = path.join(verifyDir, "bug-28");
    const capture = path.join(out, "input.pcap.gz");
    fs.writeFileSync(capture, zlib.gzipSync(fs.readFileSync(path.join(dir, "input.pcap"))));
    const result = await sanitize(capture, { ruleFiles: [path.join(dir, "test.rules")] }, { outDir: out });
    expect(result.summary.packets).toEqual({ input: 9, clean: 0, attacks: 9 });
    expect((result.summary.alerts as { total: number }).total).toBe(4);
  });

  it("rewrites ERF as pcapng for Suricata and keeps every packet", async () => {
    const out = outDir();
    const rules = path.join(out, "any.rules");
    fs.writeFileSync(rules, 'alert ip any any -> any any (msg:"any"; sid:3; rev:1;)\n');
    const capture = fixturePath("erf_5-packets.erf");
    const result = await sanitize(capture, { ruleFiles: [rules], verifyPasses: 0 }, { outDir: out });
    expect(result.outputs[0].name).toBe("clean.pcapng");
    const [input, clean, attacks] = await Promise.all(
      [capture, path.join(out, "clean.pcapng"), path.join(out, "attacks.pcapng")].map(readPackets),
    );
    expect(input.length).toBe(5);
    expect(splitDifference(input, clean, attacks)).toBe("");
    expect((result.summary.alerts as { total: number }).total).toBeGreaterThan(0);
  });

  it("splits a capture cut short up to the damage and says where it stopped", async () => {
    const out = outDir();
    const dir = path.join(verifyDir, "bug-28");
    const capture = path.join(out, "cut.pcap");
    fs.writeFileSync(capture, fs.readFileSync(path.join(dir, "input.pcap")).subarray(0, 2500));
    const result = await sanitize(capture, { ruleFiles: [path.join(dir, "test.rules")] }, { outDir: out });
    expect(result.summary).toMatchObject({ complete: false, damage: { offset: 2298 } });
    expect(result.summary.packets).toMatchObject({ input: 7 });
    const [clean, attacks] = await Promise.all(
      [path.join(out, "clean.pcap"), path.join(out, "attacks.pcap")].map(readPackets),
    );
    expect(clean.length + attacks.length).toBe(7);
  });

  it("counts only alerts at or above the severity threshold", async () => {
    const out = outDir();
    const capture = path.join(out, "scan-and-logins.pcap");
    fs.writeFileSync(capture, scanAndLoginsPcap());
    // Priority 1 only: the scan alerts (attempted-recon: priority 2) no longer make sessions attacks, the logins do.
    const result = await sanitize(capture, { minSeverity: 1, verifyPasses: 0 }, { outDir: out });
    const summary = result.summary as unknown as SanitizeSummary;
    const priorityOne = summary.alerts.bySignature.filter((s) => s.priority <= 1);
    expect(summary.alerts.atOrAboveThreshold).toBe(priorityOne.reduce((n, s) => n + s.alerts, 0));
    // By hand: the 6th to 11th SYN to a login port (the scan's 21, 22, 23, then logins 1-8) are logins 3-8.
    expect(summary.alerts.atOrAboveThreshold).toBe(6);
    expect(summary.alerts.total).toBeGreaterThan(summary.alerts.atOrAboveThreshold);
    expect(summary.packets.attacks).toBe(6 * 3);
    expect(summary.minSeverity).toBe(1);
  });
});

const { SYN, RST, ACK } = TcpFlag;

/**
 * A SYN scan of ports 1-400 of one host (closed ports answer RST-ACK, 22 and 80 SYN-ACK), then eight SSH logins
 * from the scanner: 3 packets each, 0.5 s apart. With the bundled rules the scan raises priority-2 alerts
 * (attempted-recon) and the logins past the fifth SYN to a login port priority-1 ones (attempted-user).
 */
function scanAndLoginsPcap(): Uint8Array {
  const scanner = "192.168.56.101";
  const target = "192.168.56.10";
  const packets: CapturedPacket[] = [];
  const at = (seconds: number, src: string, dst: string, srcPort: number, dstPort: number, flags: number) => {
    const micro = Math.round(seconds * 1e6);
    const frame = ethernet(
      ipv4({ src, dst }, tcp({ srcPort, dstPort, flags, seq: 1000, ack: flags & ACK ? 2001 : 0 })),
    );
    packets.push(
      capturedPacket(frame, {
        linkType: 1,
        tsSec: 1_700_000_000 + Math.floor(micro / 1e6),
        tsNsec: (micro % 1e6) * 1000,
      }),
    );
  };
  for (let port = 1; port <= 400; port++) {
    const t = port * 0.005;
    at(t, scanner, target, 40000, port, SYN);
    if (port === 22 || port === 80) {
      at(t + 0.001, target, scanner, port, 40000, SYN | ACK);
      at(t + 0.002, scanner, target, 40000, port, RST);
    } else {
      at(t + 0.001, target, scanner, port, 40000, RST | ACK);
    }
  }
  for (let login = 0; login < 8; login++) {
    const t = 3 + login * 0.5;
    at(t, scanner, target, 50001 + login, 22, SYN);
    at(t + 0.001, target, scanner, 22, 50001 + login, SYN | ACK);
    at(t + 0.002, scanner, target, 50001 + login, 22, ACK);
  }
  return pcapFile(packets);
}

interface SanitizeSummary {
  alerts: {
    total: number;
    atOrAboveThreshold: number;
    notInUnified2: number;
    bySignature: { sid: number; alerts: number; priority: number }[];
  };
  packets: { input: number; clean: number; attacks: number };
  ruleset: { ruleFiles: string[]; classificationFile: string };
  verified: boolean;
  minSeverity: number | null;
}
