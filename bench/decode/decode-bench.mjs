// Micro-benchmark of core/decode: packets per second of PacketDecoder alone (packets held in memory) and of
// read + decode streaming a capture file. Run by hand after `npx tsc -b`:
//   node bench/decode/decode-bench.mjs [capture] [--packets N]
// Default capture: /tmp/bench/bench-small.pcap (docs/performance.md, "Benchmark captures").
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { DecodeKind, FragmentTracker, openPacketSource, PacketDecoder, PacketRecord } from "@tracemill/core";

const args = process.argv.slice(2);
const packetsOption = args.indexOf("--packets");
const maxPackets = packetsOption >= 0 ? Number(args.splice(packetsOption, 2)[1]) : 300_000;
const file = args[0] ?? "/tmp/bench/bench-small.pcap";
if (!existsSync(file)) {
  console.error(`${file} not found: give a capture as the argument (docs/performance.md, "Benchmark captures")`);
  process.exit(2);
}
const CHUNK = 4 << 20;

/** CPU seconds used since `since`: on a shared machine, wall time alone understates the rate of one core. */
function cpuSeconds(since) {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

function rate(packets, seconds) {
  return `${(packets / seconds / 1e6).toFixed(2)} M packets/s`;
}

/** Streams the file through a PacketSource, calling `each` for every packet. */
function stream(path, each) {
  const fd = openSync(path, "r");
  const chunk = new Uint8Array(CHUNK);
  let source = null;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      if (source === null) source = openPacketSource(chunk.subarray(0, n));
      else source.push(chunk.subarray(0, n));
      for (let p = source.next(); p !== null; p = source.next()) each(p);
    }
    source?.end();
    if (source) for (let p = source.next(); p !== null; p = source.next()) each(p);
  } finally {
    closeSync(fd);
  }
}

// 1. Decode alone: the first packets copied into one buffer, as a reader holds them, decoded round after round (~3 s).
const held = [];
const store = new Uint8Array(maxPackets * 256);
let used = 0;
try {
  stream(file, (p) => {
    if (held.length >= maxPackets || used + p.capturedLength > store.length) throw held;
    const record = new PacketRecord();
    record.originalLength = p.originalLength;
    record.linkType = p.linkType;
    store.set(p.data, used);
    record.setBytes(store, used, p.capturedLength);
    used += p.capturedLength;
    held.push(record);
  });
} catch (e) {
  if (e !== held) throw e;
}
const decoder = new PacketDecoder();
const kinds = new Float64Array(8);
let decoded = 0;
const start = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
let elapsed = 0;
while (elapsed < 3) {
  for (let i = 0; i < held.length; i++) kinds[decoder.decode(held[i]).kind]++;
  decoded += held.length;
  elapsed = Number(process.hrtime.bigint() - start) / 1e9;
}
const cpu = cpuSeconds(cpuStart);
const names = Object.fromEntries(Object.entries(DecodeKind).map(([k, v]) => [v, k]));
const mix = [...kinds.entries()]
  .filter(([, n]) => n > 0)
  .map(([k, n]) => `${names[k]} ${((100 * n) / decoded).toFixed(1)}%`)
  .join(", ");
console.log(`capture: ${file}`);
console.log(
  `decode only: ${rate(decoded, elapsed)} wall, ${rate(decoded, cpu)} CPU (${held.length} packets x ${Math.round(decoded / held.length)} rounds; ${mix})`,
);

// 2. Read only, then read + decode (+ fragment tracking) of the whole file, streamed in 4 MiB chunks.
function timed(label, each) {
  let packets = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  stream(file, (p) => {
    packets++;
    each(p);
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = cpuSeconds(c0);
  console.log(
    `${label} ${rate(packets, seconds)} wall, ${rate(packets, cpu)} CPU (${packets} packets, ${seconds.toFixed(2)} s)`,
  );
}
const tracker = new FragmentTracker({ hold: (_decoded, p) => p.index, resolved: () => {}, unattributed: () => {} });
let sink = 0;
timed("read only:", (p) => {
  sink += p.capturedLength;
});
timed("read + decode:", (p) => {
  sink += decoder.decode(p).kind;
});
timed("read + decode + fragment tracking:", (p) => {
  const d = decoder.decode(p);
  if (d.isFragment) tracker.track(d, p);
  sink += d.kind;
});
console.log(`(checksum ${sink}; RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB)`);
