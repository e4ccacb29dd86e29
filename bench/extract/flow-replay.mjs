// The flow table and the feature extractors alone, fed packets decoded beforehand, in nanoseconds a packet of the
// main thread: `node bench/extract/flow-replay.mjs CAPTURE [ROOT]` (ROOT: a checkout whose packages are built,
// default this one). The capture's TCP/UDP packets (fragments aside) are decoded into typed arrays first (80 bytes a
// packet), then replayed through FlowTable + FeatureSet with the extract pass's hooks and no rows; only the replay is
// timed. Environment: LIMIT=N replays the first N packets only, REPEAT=R replays them R times over, each time shifted
// past the last (LIMIT=100000 REPEAT=100: few enough live sessions to stay in cache, so that the figure is
// instructions rather than memory); FEATURES=tracemill,cic,nfstream chooses the feature sets (default: tracemill).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [capture, rootArg] = process.argv.slice(2);
if (capture === undefined) {
  console.error("usage: node bench/extract/flow-replay.mjs CAPTURE [ROOT]");
  process.exit(2);
}
const root = path.resolve(rootArg ?? path.join(import.meta.dirname, "../.."));
const core = await import(pathToFileURL(path.join(root, "packages/core/dist/index.js")).href);
const engine = await import(pathToFileURL(path.join(root, "packages/engine/dist/index.js")).href);
const { createDecodedPacket, DecodeKind, FeatureSet, FlowTable, PacketDecoder } = core;
const limit = Number(process.env.LIMIT ?? 0) || Number.POSITIVE_INFINITY;
const repeat = Number(process.env.REPEAT ?? 1);

// Per packet: 4 source and 4 destination address words, then the fields below, then the time as seconds + ns.
const WORDS = 20;
const [PORTS, PROTOCOL, VERSION, FLAGS, LENGTH, IP_HEADER, TRANSPORT_HEADER, SEC, NSEC, INDEX] = [
  8, 10, 11, 12, 13, 14, 15, 16, 17, 18,
];
let words = new Int32Array(WORDS << 20);
let packets = 0;
const decoder = new PacketDecoder();
await engine.readCapture(capture, (captured) => {
  if (packets >= limit) return;
  const d = decoder.decode(captured);
  if (d.isFragment || (d.kind !== DecodeKind.Tcp && d.kind !== DecodeKind.Udp)) return;
  if ((packets + 1) * WORDS > words.length) {
    const grown = new Int32Array(words.length * 2);
    grown.set(words);
    words = grown;
  }
  const o = packets++ * WORDS;
  const bytes = d.ipVersion === 6 ? 16 : 4;
  for (let i = 0; i < bytes; i++) {
    words[o + (i >> 2)] |= d.src[i] << (24 - 8 * (i & 3));
    words[o + 4 + (i >> 2)] |= d.dst[i] << (24 - 8 * (i & 3));
  }
  words[o + PORTS] = d.srcPort;
  words[o + PORTS + 1] = d.dstPort;
  words[o + PROTOCOL] = d.protocol;
  words[o + VERSION] = d.ipVersion;
  words[o + FLAGS] = d.tcpFlags;
  words[o + LENGTH] = d.ipLength;
  words[o + IP_HEADER] = d.ipHeaderLength;
  words[o + TRANSPORT_HEADER] = d.transportHeaderLength;
  words[o + SEC] = captured.tsSec;
  words[o + NSEC] = captured.tsNsec;
  words[o + INDEX] = captured.index;
});

const features = new FeatureSet(core.featureSetsNamed((process.env.FEATURES ?? "tracemill").split(",")));
let sessions = 0;
const table = new FlowTable({
  onStart(session, packet) {
    features.start(session, packet);
  },
  onPacket(session, packet) {
    const state = features.stateFor(session, packet);
    if (state >= 0) features.update(state, packet);
  },
  onEnd(session) {
    sessions++;
    features.end(session);
  },
});

// One decoded packet refilled from the arrays, as the decoder refills its own.
const decoded = createDecodedPacket();
function refill(o) {
  const bytes = words[o + VERSION] === 6 ? 16 : 4;
  for (let i = 0; i < bytes; i++) {
    decoded.src[i] = words[o + (i >> 2)] >>> (24 - 8 * (i & 3));
    decoded.dst[i] = words[o + 4 + (i >> 2)] >>> (24 - 8 * (i & 3));
  }
  decoded.kind = words[o + PROTOCOL] === 6 ? DecodeKind.Tcp : DecodeKind.Udp;
  decoded.ipVersion = words[o + VERSION];
  decoded.protocol = words[o + PROTOCOL];
  decoded.srcPort = words[o + PORTS];
  decoded.dstPort = words[o + PORTS + 1];
  decoded.ipLength = words[o + LENGTH];
  decoded.ipHeaderLength = words[o + IP_HEADER];
  decoded.transportHeaderLength = words[o + TRANSPORT_HEADER];
  decoded.tcpFlags = words[o + FLAGS];
}

function replay() {
  const span = packets === 0 ? 0 : words[(packets - 1) * WORDS + SEC] - words[SEC] + 1000;
  for (let r = 0; r < repeat; r++) {
    for (let i = 0; i < packets; i++) {
      const o = i * WORDS;
      refill(o);
      table.add(decoded, words[o + SEC] + r * span, words[o + NSEC], words[o + LENGTH], words[o + INDEX]);
    }
  }
}

/** CPU seconds (user + sys) of the main thread, from /proc (USER_HZ 100). */
function mainCpu() {
  const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const before = mainCpu();
const started = process.hrtime.bigint();
replay();
const wall = Number(process.hrtime.bigint() - started) / 1e9;
const main = mainCpu() - before;
table.flush();
const replayed = packets * repeat;
console.log(
  `${replayed} packets, ${sessions} sessions: main ${main.toFixed(2)} CPU s, ${((main * 1e9) / replayed).toFixed(0)} ns ` +
    `a packet (wall ${((wall * 1e9) / replayed).toFixed(0)} ns)`,
);
