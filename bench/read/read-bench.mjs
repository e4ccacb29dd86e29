// Read (+ decode to the transport layer) throughput of engine readCapture on a large capture, beside
// `tcpdump -r FILE -w /dev/null` on the same file in the same run. Run by hand after `npx tsc -b`:
//   node bench/read/read-bench.mjs [capture] [--rounds N]   (default 2 rounds: the last one is reported)
// Default capture: /tmp/bench/bench-small.pcap (docs/performance.md, "Benchmark captures";
// bench-large.pcap is the 10M-packet one). Prints packets/s per CPU second and wall second, and peak RSS.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { PacketDecoder } from "@tracemill/core";
import { readCapture } from "@tracemill/engine";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 2;
const file = args[0] ?? "/tmp/bench/bench-small.pcap";
if (!existsSync(file)) {
  console.error(`${file} not found: give a capture as the argument (docs/performance.md, "Benchmark captures")`);
  process.exit(1);
}

/** Runs `run` `rounds` times (the first warms the JIT up) and reports the last round. */
async function measure(label, run) {
  for (let i = 1; i < rounds; i++) await run();
  const cpu = process.cpuUsage();
  const start = performance.now();
  return run().then((packets) => {
    const wall = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const seconds = (used.user + used.system) / 1e6;
    const row = { label, packets, cpu: seconds, wall, perCpu: packets / seconds, perWall: packets / wall };
    console.log(
      `${label.padEnd(28)} ${packets} packets  ${(row.perCpu / 1e6).toFixed(2)} M/s per CPU s  ` +
        `${(row.perWall / 1e6).toFixed(2)} M/s wall  (${seconds.toFixed(2)} CPU s, ${wall.toFixed(2)} s)`,
    );
    return row;
  });
}

console.log(`${file}: ${(statSync(file).size / 1e6).toFixed(0)} MB`);
const read = await measure("tracemill read", async () => {
  let n = 0;
  await readCapture(file, () => {
    n++;
  });
  return n;
});
const decoder = new PacketDecoder();
let transport = 0;
const decoded = await measure("tracemill read + decode", async () => {
  transport = 0;
  const result = await readCapture(file, (packet) => {
    const d = decoder.decode(packet);
    if (d.transportOffset >= 0) transport++;
  });
  return result.packets;
});
console.log(`  ${transport} packets decoded down to TCP/UDP`);

const tcpdumpStart = performance.now();
const tcpdump = spawnSync("tcpdump", ["-r", file, "-w", "/dev/null"], { encoding: "utf8" });
const tcpdumpWall = (performance.now() - tcpdumpStart) / 1000;
if (tcpdump.status === 0) {
  console.log(
    `${"tcpdump -r FILE -w /dev/null".padEnd(28)} ${read.packets} packets  ${(read.packets / tcpdumpWall / 1e6).toFixed(2)} M/s wall  (${tcpdumpWall.toFixed(2)} s)`,
  );
  console.log(`ratio tracemill read / tcpdump (wall): ${(read.perWall / (read.packets / tcpdumpWall)).toFixed(2)}`);
  console.log(
    `ratio tracemill read+decode / tcpdump (wall): ${(decoded.perWall / (read.packets / tcpdumpWall)).toFixed(2)}`,
  );
} else console.log(`tcpdump failed: ${tcpdump.stderr.trim()}`);
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
