#!/usr/bin/env node
// The fixed cost of a tracemill run: `--version`, `--help`, and `extract` and `info` of a small capture, beside bare
// Node (a script and an ES module that do nothing) and softflowd on the same capture, in alternating rounds (one run
// of each per round, in turn), so that the machine's drift touches every command alike. Prints each command's median
// and range of wall milliseconds. Build first (`npm run build:cli`).
//
//   node bench/startup/startup-bench.mjs [CAPTURE] [--rounds N] [--base CLI]
//
// --base CLI also times another build's command (e.g. /tmp/base/apps/cli/bin/tracemill.js) in the same rounds.
// CAPTURE defaults to the repository's test/fixtures/capture/benign/wikipedia-browse.pcap (27 KB, 136 packets).
// NODE_EXTRA_CA_CERTS is removed from every command's environment: with it, Node parses the named certificate bundle
// at every start-up (tens of milliseconds), a cost of the machine's set-up rather than of Tracemill.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 21;
const baseAt = args.indexOf("--base");
const base = baseAt >= 0 ? path.resolve(args.splice(baseAt, 2)[1]) : undefined;
const capture = path.resolve(args[0] ?? path.join(root, "test/fixtures/capture/benign/wikipedia-browse.pcap"));
const cli = path.join(root, "apps/cli/bin/tracemill.js");
if (!fs.existsSync(path.join(root, "apps/cli/dist/bundle/main.js"))) {
  process.stderr.write("startup-bench: build the command first (npm run build:cli)\n");
  process.exit(1);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-startup-"));
const emptyModule = path.join(scratch, "empty.mjs");
fs.writeFileSync(emptyModule, "");
const csv = path.join(scratch, "out.csv");
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

/** [label, program, arguments, before each run]. The command's own first line starts Node with its flags. */
const commands = [
  ["node -e 0", process.execPath, ["-e", "0"]],
  ["node empty.mjs", process.execPath, [emptyModule]],
  ["tracemill --version", cli, ["--version"]],
  ["tracemill --help", cli, ["--help"]],
  ["tracemill info CAPTURE", cli, ["info", capture]],
  ["tracemill extract CAPTURE -o FILE", cli, ["extract", capture, "-o", csv], () => fs.rmSync(csv, { force: true })],
];
if (base !== undefined) {
  commands.push(["base --version", base, ["--version"]]);
  commands.push([
    "base extract CAPTURE -o FILE",
    base,
    ["extract", capture, "-o", csv],
    () => fs.rmSync(csv, { force: true }),
  ]);
}
if (spawnSync("softflowd", ["-h"], { stdio: "ignore" }).error === undefined) {
  commands.push(["softflowd -r CAPTURE", "softflowd", ["-r", capture, "-v", "9", "-n", "127.0.0.1:9"]]);
}

const times = new Map(commands.map(([label]) => [label, []]));
for (let round = 0; round < rounds + 1; round++) {
  for (const [label, program, commandArgs, before] of commands) {
    before?.();
    const started = process.hrtime.bigint();
    const result = spawnSync(program, commandArgs, { env, stdio: ["ignore", "ignore", "pipe"] });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) {
      process.stderr.write(`startup-bench: ${label} failed (${result.status}): ${result.stderr}\n`);
      process.exit(1);
    }
    // The first round warms the page cache and is not counted.
    if (round > 0) times.get(label).push(ms);
  }
}
fs.rmSync(scratch, { recursive: true, force: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
process.stdout.write(`${path.basename(capture)}, ${rounds} alternating rounds, wall ms: median (min–max)\n`);
for (const [label, values] of times) {
  const line = `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
  process.stdout.write(`  ${label.padEnd(36)} ${line}\n`);
}
