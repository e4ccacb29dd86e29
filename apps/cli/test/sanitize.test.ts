// tracemill sanitize as a user runs it: outputs in --out, a one-line summary, errors as exit 1 with one line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const fixtures = path.resolve(repoRoot, "test/fixtures");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cli-sanitize-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("tracemill sanitize", () => {
  it("splits a capture with a rules file and writes every output", () => {
    const rules = path.join(tmp, "syn.rules");
    fs.writeFileSync(rules, 'alert tcp any any -> any 80 (msg:"to web"; flags:S,12; sid:7; rev:1;)\n');
    const out = path.join(tmp, "out");
    const capture = path.join(fixtures, "sanitize/suricata-verify/bug-28/input.pcap");
    const result = runCli(["sanitize", capture, "--rules", rules, "--out", out, "--verify-passes", "0"]);
    expect(result.stderr).toContain("1 alert; clean: 0 packets, 0 sessions; attacks: 9 packets, 1 session");
    expect(result.status).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(["alerts.u2", "attacks.pcap", "clean.pcap", "eve.json", "summary.json"]);
    const summary = JSON.parse(fs.readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.alerts.bySignature).toEqual([
      { gid: 1, sid: 7, rev: 1, signature: "to web", classtype: "", priority: 3, alerts: 1 },
    ]);
  });

  it("gives the same classes from its alerts.u2 and its eve.json to label (the default classification)", () => {
    const capture = path.join(fixtures, "capture/attacks/log4shell-exploit.pcap");
    const out = path.join(tmp, "log4shell");
    expect(runCli(["sanitize", capture, "--out", out]).status).toBe(0);
    const classes = (alerts: string) => {
      const csv = path.join(tmp, `${alerts}.csv`);
      expect(runCli(["label", capture, "--alerts", path.join(out, alerts), "-o", csv]).status).toBe(0);
      return fs
        .readFileSync(csv, "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => line.split(",").slice(50).join(","));
    };
    const fromU2 = classes("alerts.u2");
    expect(fromU2).toEqual(classes("eve.json"));
    // The classtype's short name, from the number unified2 stores: not "classtype-12".
    expect(fromU2.filter((row) => row.startsWith("1,"))).toEqual(["1,12,attempted-admin"]);
  });

  it("uses a named ruleset and reports a missing one in one line", () => {
    const result = runCli(["sanitize", path.join(fixtures, "capture/benign/dns53.pcap"), "--ruleset", "nope"]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain('no ruleset "nope"');
  });

  it("says how to install Suricata when the program is missing", () => {
    const capture = path.join(fixtures, "capture/benign/dns53.pcap");
    const result = runCli(["sanitize", capture, "--out", path.join(tmp, "x"), "--suricata", path.join(tmp, "none")]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("apt-get install -t bookworm-backports suricata");
  });

  it("rejects a bad option value as a user error", () => {
    const result = runCli(["sanitize", "x.pcap", "--min-severity", "high"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("--min-severity needs a number");
  });
});
