#!/usr/bin/env node
// Measures what sanitization adds on top of Suricata: the whole run versus Suricata's own time, on one capture.
// Usage: npm run build && node bench/sanitize/bench-sanitize.mjs [capture] [--rules FILE]...
// Default capture: /tmp/bench/bench-small.pcap (../shared/bench/make-bench-capture.sh); default rules: rules/default.
// Prints Suricata's time, Tracemill's time (split + writing + EVE/unified2), and their ratio (target < 30 %).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sanitize } from "../../packages/engine/dist/index.js";

const args = process.argv.slice(2);
const ruleFiles = [];
let capture = "/tmp/bench/bench-small.pcap";
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--rules") ruleFiles.push(args[++i]);
  else capture = args[i];
}
const out = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-bench-sanitize-"));
try {
  const started = performance.now();
  // One Suricata run: verification passes are further Suricata runs and would only add Suricata time.
  const result = await sanitize(capture, { ruleFiles, verifyPasses: 0 }, { outDir: out });
  const total = (performance.now() - started) / 1000;
  const s = result.summary;
  const suricata = s.suricata.seconds;
  const added = total - suricata;
  const size = fs.statSync(capture).size;
  console.log(`capture        ${capture} (${(size / 1e6).toFixed(0)} MB, ${s.packets.input} packets)`);
  console.log(`alerts         ${s.alerts.total}; clean ${s.packets.clean} packets, attacks ${s.packets.attacks} packets`);
  console.log(`suricata       ${suricata.toFixed(2)} s`);
  console.log(`tracemill adds ${added.toFixed(2)} s (${((100 * added) / suricata).toFixed(1)} % of Suricata's time; target < 30 %)`);
  console.log(`total          ${total.toFixed(2)} s`);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
