#!/usr/bin/env node
// Measures Tracemill's part of sanitization alone, without Suricata working beside it on the other core: Suricata
// runs once, then each sanitization gets a stand-in "suricata" that copies that run's EVE output into place.
// Usage: npm run build && node bench/sanitize/bench-tracemill-part.mjs [capture] [--runs N]
// Default capture: /tmp/bench/bench-small.pcap; rules: rules/default; 5 runs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultRulesetDir, loadRuleset, runSuricataOnCapture, sanitize } from "../../packages/engine/dist/index.js";
import { withProductFlags } from "./product-flags.mjs";
import { threadCpu, threadCpuText } from "./thread-cpu.mjs";

withProductFlags(import.meta.filename);

const args = process.argv.slice(2);
let capture = "/tmp/bench/bench-small.pcap";
let runs = 5;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else capture = args[i];
}
const out = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-bench-part-"));
try {
  const ruleset = await loadRuleset(defaultRulesetDir());
  const recorded = path.join(out, "recorded");
  const alone = await runSuricataOnCapture(
    capture,
    { ...ruleset, homeNet: "any", externalNet: "any", runmode: "single" },
    recorded,
  );
  // The stand-in answers like Suricata (its version line) and leaves the recorded files where Suricata writes them.
  const standIn = path.join(out, "suricata-stand-in");
  fs.writeFileSync(
    standIn,
    `#!/bin/sh\ndir=; prev=\nfor a in "$@"; do [ "$prev" = -l ] && dir=$a; prev=$a; done\n` +
      `echo "This is Suricata version ${alone.version} RELEASE"\n` +
      `cp ${JSON.stringify(alone.eveFile)} ${JSON.stringify(alone.flowsFile)} "$dir/"\n`,
    { mode: 0o755 },
  );
  const figures = [];
  for (let run = 0; run < runs; run++) {
    const outDir = path.join(out, `run-${run}`);
    fs.mkdirSync(outDir);
    const threadsBefore = threadCpu();
    const before = process.cpuUsage();
    const result = await sanitize(capture, { verifyPasses: 0, suricataPath: standIn }, { outDir });
    const cpu = process.cpuUsage(before);
    const threads = threadCpuText(threadsBefore, threadCpu());
    figures.push([cpu.user / 1e6, cpu.system / 1e6]);
    console.log(
      `run ${run + 1}: user ${(cpu.user / 1e6).toFixed(2)} s, system ${(cpu.system / 1e6).toFixed(2)} s (${result.summary.alerts.total} alerts; ${threads})`,
    );
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `median: user ${median(figures.map((f) => f[0])).toFixed(2)} s, system ${median(figures.map((f) => f[1])).toFixed(2)} s`,
  );
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
