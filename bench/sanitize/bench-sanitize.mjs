#!/usr/bin/env node
// Measures what sanitization adds on top of Suricata: the whole run versus Suricata's own time, on one capture, for
// the bundled ruleset and (with --rules-dir) another, side by side in one run.
// Usage: npm run build && node bench/sanitize/bench-sanitize.mjs [capture] [--rules FILE]... [--rules-dir DIR]
// Default capture: /tmp/bench/bench-small.pcap (docs/performance.md, "Benchmark captures"); default rules: rules/default.
// Each ruleset: Suricata alone (Tracemill's configuration, nothing else), then the whole sanitization (one pass); what
// Tracemill adds is the difference (EVE and unified2 handling, the split, writing). Target: under 30 % of Suricata's
// CPU time with either ruleset.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultRulesetDir, loadRuleset, runSuricataOnCapture, sanitize } from "../../packages/engine/dist/index.js";
import { withProductFlags } from "./product-flags.mjs";
import { threadCpu, threadCpuText } from "./thread-cpu.mjs";

withProductFlags(import.meta.filename);

const args = process.argv.slice(2);
const ruleFiles = [];
let rulesDir;
let capture = "/tmp/bench/bench-small.pcap";
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--rules") ruleFiles.push(path.resolve(args[++i]));
  else if (args[i] === "--rules-dir") rulesDir = args[++i];
  else capture = args[i];
}
const out = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-bench-sanitize-"));

async function measure(label, rules, classificationFile) {
  const dir = path.join(out, label.replace(/\W+/g, "-"));
  fs.mkdirSync(dir);
  // Suricata's CPU time comes from /usr/bin/time around it; Tracemill's from process.cpuUsage() (children excluded).
  const timing = path.join(dir, "suricata-cpu.txt");
  const wrapper = path.join(dir, "suricata-timed");
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -o ${timing} -f "%U %S" suricata "$@"\n`, { mode: 0o755 });
  const setup = { ruleFiles: rules, classificationFile, homeNet: "any", externalNet: "any", runmode: "single" };
  const alone = await runSuricataOnCapture(capture, { ...setup, suricataPath: wrapper }, path.join(dir, "alone"));
  const suricataCpu = fs
    .readFileSync(timing, "utf8")
    .trim()
    .split("\n")
    .at(-1)
    .split(" ")
    .map(Number)
    .reduce((a, b) => a + b, 0);
  fs.rmSync(path.join(dir, "alone"), { recursive: true, force: true });
  const threadsBefore = threadCpu();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  // One Suricata run: verification passes are further Suricata runs and would only add Suricata time.
  const outDir = path.join(dir, "sanitized");
  fs.mkdirSync(outDir);
  const result = await sanitize(capture, { ruleFiles: rules, classificationFile, verifyPasses: 0 }, { outDir });
  const total = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const threads = threadCpuText(threadsBefore, threadCpu());
  const tracemillCpu = (cpu.user + cpu.system) / 1e6;
  fs.rmSync(dir, { recursive: true, force: true });
  return { label, summary: result.summary, suricata: alone.seconds, suricataCpu, total, tracemillCpu, cpu, threads };
}

try {
  const ruleset = await loadRuleset(defaultRulesetDir());
  const rows = [];
  if (ruleFiles.length > 0) rows.push(await measure("--rules", ruleFiles, "/etc/suricata/classification.config"));
  else rows.push(await measure("rules/default", ruleset.ruleFiles, ruleset.classificationFile));
  if (rulesDir) {
    const other = await loadRuleset(rulesDir);
    rows.push(await measure(other.name, other.ruleFiles, other.classificationFile));
  }
  const size = fs.statSync(capture).size;
  console.log(`capture        ${capture} (${(size / 1e6).toFixed(0)} MB, ${rows[0].summary.packets.input} packets)`);
  for (const r of rows) {
    const s = r.summary;
    const added = r.total - r.suricata;
    console.log(`\n[${r.label}]`);
    console.log(
      `alerts         ${s.alerts.total}; clean ${s.packets.clean} packets, attacks ${s.packets.attacks} packets`,
    );
    console.log(`suricata alone ${r.suricata.toFixed(2)} s (inside sanitize: ${s.suricata.seconds.toFixed(2)} s)`);
    console.log(
      `tracemill adds ${added.toFixed(2)} s wall (${((100 * added) / r.suricata).toFixed(1)} % of Suricata's)`,
    );
    // System time varies most between runs on a shared machine: shown apart.
    console.log(
      `cpu            Suricata ${r.suricataCpu.toFixed(2)} s, Tracemill ${r.tracemillCpu.toFixed(2)} s (${((100 * r.tracemillCpu) / r.suricataCpu).toFixed(1)} %; target < 30 %; user ${(r.cpu.user / 1e6).toFixed(2)} s, system ${(r.cpu.system / 1e6).toFixed(2)} s)`,
    );
    console.log(`threads        ${r.threads}`);
  }
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
