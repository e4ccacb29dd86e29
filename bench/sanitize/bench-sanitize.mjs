#!/usr/bin/env node
// Measures what sanitization adds on top of Suricata: the whole run versus Suricata's own time, on one capture.
// Usage: npm run build && node bench/sanitize/bench-sanitize.mjs [capture] [--rules FILE]...
// Default capture: /tmp/bench/bench-small.pcap (docs/performance.md, "Benchmark captures"); default rules: rules/default.
// First runs Suricata alone (Tracemill's configuration, nothing else), then the whole sanitization; what Tracemill adds is
// the difference (EVE and unified2 handling, the split, writing). Target: under 30 % of Suricata's time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultRulesetDir, loadRuleset, runSuricataOnCapture, sanitize } from "../../packages/engine/dist/index.js";
import { threadCpu, threadCpuText } from "./thread-cpu.mjs";

const args = process.argv.slice(2);
const ruleFiles = [];
let capture = "/tmp/bench/bench-small.pcap";
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--rules") ruleFiles.push(args[++i]);
  else capture = args[i];
}
const out = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-bench-sanitize-"));
try {
  const ruleset = await loadRuleset(defaultRulesetDir());
  // Suricata's CPU time comes from /usr/bin/time around it; Tracemill's from process.cpuUsage() (children excluded).
  const timing = path.join(out, "suricata-cpu.txt");
  const wrapper = path.join(out, "suricata-timed");
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -o ${timing} -f "%U %S" suricata "$@"\n`, { mode: 0o755 });
  const alone = await runSuricataOnCapture(
    capture,
    {
      ruleFiles: ruleFiles.length > 0 ? ruleFiles.map((f) => path.resolve(f)) : ruleset.ruleFiles,
      classificationFile: ruleFiles.length > 0 ? "/etc/suricata/classification.config" : ruleset.classificationFile,
      homeNet: "any",
      externalNet: "any",
      runmode: "single",
      suricataPath: wrapper,
    },
    path.join(out, "alone"),
  );
  const suricataCpu = fs
    .readFileSync(timing, "utf8")
    .trim()
    .split("\n")
    .at(-1)
    .split(" ")
    .map(Number)
    .reduce((a, b) => a + b, 0);
  const threadsBefore = threadCpu();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  // One Suricata run: verification passes are further Suricata runs and would only add Suricata time.
  const outDir = path.join(out, "sanitized");
  fs.mkdirSync(outDir);
  const result = await sanitize(capture, { ruleFiles, verifyPasses: 0 }, { outDir });
  const total = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const threads = threadCpuText(threadsBefore, threadCpu());
  const tracemillCpu = (cpu.user + cpu.system) / 1e6;
  const s = result.summary;
  const suricata = alone.seconds;
  const added = total - suricata;
  const size = fs.statSync(capture).size;
  console.log(`capture        ${capture} (${(size / 1e6).toFixed(0)} MB, ${s.packets.input} packets)`);
  console.log(
    `alerts         ${s.alerts.total}; clean ${s.packets.clean} packets, attacks ${s.packets.attacks} packets`,
  );
  console.log(`suricata alone ${suricata.toFixed(2)} s (inside sanitize: ${s.suricata.seconds.toFixed(2)} s)`);
  console.log(
    `tracemill adds ${added.toFixed(2)} s (${((100 * added) / suricata).toFixed(1)} % of Suricata's time; target < 30 %)`,
  );
  console.log(`total          ${total.toFixed(2)} s`);
  // System time varies most between runs on a shared machine: shown apart.
  console.log(
    `cpu            Suricata ${suricataCpu.toFixed(2)} s, Tracemill ${tracemillCpu.toFixed(2)} s (${((100 * tracemillCpu) / suricataCpu).toFixed(1)} %; user ${(cpu.user / 1e6).toFixed(2)} s, system ${(cpu.system / 1e6).toFixed(2)} s)`,
  );
  console.log(`threads        ${threads}`);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
