// Times labelling, IPT series and images against plain feature extraction on the benchmark capture, same process,
// same file, and prints each one's ratio (the target is ≤ 1.5×). Run by hand after `npx tsc -b`:
//   node bench/labels/labels-bench.mjs [capture] [--runs N] [--only NAME-PREFIX]
// Default capture: /tmp/bench/bench-small.pcap (docs/performance.md, "Benchmark captures"). The attack capture and
// the alerts come from test/fixtures; their conversations are among the benchmark's replicas only
// with rewritten addresses, so few sessions match: the cost measured is the lookup per session, which is what
// scales with the capture.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { extractFeatures, extractImages, extractIpt, labelCapture } from "@tracemill/engine";

const args = process.argv.slice(2);
const runsOption = args.indexOf("--runs");
const runs = runsOption >= 0 ? Number(args.splice(runsOption, 2)[1]) : 2;
const onlyOption = args.indexOf("--only");
// `--only images` times plain extraction and the runs whose name starts with "images".
const only = onlyOption >= 0 ? args.splice(onlyOption, 2)[1] : undefined;
const capture = args[0] ?? "/tmp/bench/bench-small.pcap";
const fixtures = path.resolve(import.meta.dirname, "../../test/fixtures");
const attacks = path.join(fixtures, "capture/attacks/hydra-bruteforce.pcapng");
const alerts = path.join(fixtures, "alerts/snort_unified2-legacy.u2");

/** CPU seconds of this process (user + system): on a shared 2-core machine wall time varies with the neighbours. */
function cpu() {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

const jobs = [
  ["extract (plain features)", (outDir) => extractFeatures(capture, { outDir })],
  ["ipt", (outDir) => extractIpt(capture, {}, { outDir })],
  ["ipt --signed", (outDir) => extractIpt(capture, { signed: true }, { outDir })],
  ["images -n 32", (outDir) => extractImages(capture, { flowsPerImage: 32 }, { outDir })],
  ["images -n 256", (outDir) => extractImages(capture, { flowsPerImage: 256 }, { outDir })],
  ["label --attacks", (outDir) => labelCapture(capture, { attacks }, { outDir })],
  ["label --alerts (4703 u2 events)", (outDir) => labelCapture(capture, { alerts }, { outDir })],
].filter(([name], i) => i === 0 || only === undefined || name.startsWith(only));

// Rounds of every job in turn, best round kept per job: the neighbours' load and the JIT's warm-up (the first
// job would otherwise run colder than the rest) fall on all jobs alike.
const results = jobs.map(([name]) => ({ name, wall: Infinity, cpu: Infinity }));
for (let round = 0; round < runs; round++) {
  for (const [i, [, job]] of jobs.entries()) {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-bench-"));
    const c0 = cpu();
    const w0 = performance.now();
    await job(outDir);
    const wall = (performance.now() - w0) / 1000;
    const used = cpu() - c0;
    fs.rmSync(outDir, { recursive: true, force: true });
    // Best CPU and best wall time, each on its own: a worker thread lowers the one and not the other.
    results[i] = { name: results[i].name, wall: Math.min(wall, results[i].wall), cpu: Math.min(used, results[i].cpu) };
  }
}

const base = results[0];
console.log(`capture: ${capture} (${(fs.statSync(capture).size / 1e6).toFixed(0)} MB), best of ${runs} run(s)`);
console.log("run                                 wall s   cpu s   ratio (cpu)");
for (const r of results) {
  const ratio = r.cpu / base.cpu;
  console.log(
    `${r.name.padEnd(34)} ${r.wall.toFixed(2).padStart(7)} ${r.cpu.toFixed(2).padStart(7)}   ${ratio.toFixed(2)}×${ratio > 1.5 ? "  OVER 1.5×" : ""}`,
  );
}
