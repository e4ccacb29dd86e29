#!/usr/bin/env node
// A sanitize job on a warm worker: the first job loads the ruleset into a Suricata daemon (SuricataDaemons, as a
// pool does), the next ones only scan. Target: a small capture (< 1 MB) with ET Open under 3 s once warm.
// Usage: npm run build && node bench/sanitize/bench-warm.mjs CAPTURE [--rules-dir DIR] [--runs N]
// Default rules: rules/default; 3 warm runs; verification passes as a job runs them (2).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultRulesetDir, SuricataDaemons, sanitize } from "../../packages/engine/dist/index.js";

const args = process.argv.slice(2);
let capture;
let rulesDir = defaultRulesetDir();
let runs = 3;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--rules-dir") rulesDir = args[++i];
  else if (args[i] === "--runs") runs = Number(args[++i]);
  else capture = args[i];
}
if (!capture) throw new Error("usage: bench-warm.mjs CAPTURE [--rules-dir DIR] [--runs N]");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-bench-warm-"));
const daemons = new SuricataDaemons();
try {
  console.log(`capture ${capture} (${(fs.statSync(capture).size / 1e3).toFixed(0)} kB), rules ${rulesDir}`);
  const times = [];
  for (let run = 0; run <= runs; run++) {
    const outDir = path.join(out, `run-${run}`);
    fs.mkdirSync(outDir);
    const started = performance.now();
    const result = await sanitize(capture, { ruleset: rulesDir, daemons }, { outDir });
    const seconds = (performance.now() - started) / 1000;
    if (run > 0) times.push(seconds);
    const s = result.summary;
    console.log(
      `${run === 0 ? "cold (loads the rules)" : `warm ${run}`}: ${seconds.toFixed(2)} s, ${s.alerts.total} alerts, ${s.passes.length} Suricata passes`,
    );
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`warm median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} s (target < 3 s)`);
} finally {
  await daemons.stop();
  fs.rmSync(out, { recursive: true, force: true });
}
