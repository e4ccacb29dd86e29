// Row formatting alone, with every state in cache: a sample of a capture's real sessions (every 35th), copied out of
// the flow table when they end, then formatted over and over (a one-packet session's row includes the replay of its
// packet, as in the pass); prints the best nanoseconds per row of TRIALS loops (default 150). The best of many short
// loops is what stays comparable on a machine shared with other work.
// Usage: node bench/extract/row-format.mjs CAPTURE  (after `npx tsc -b`; bench-small is enough)

import { SessionStore } from "../../packages/core/dist/flow/session.js";
import {
  DecodeKind,
  FeatureSet,
  FlowTable,
  PacketDecoder,
  RowBuilder,
  Session,
} from "../../packages/core/dist/index.js";
import { readCapture } from "../../packages/engine/dist/index.js";

const capture = process.argv[2];
const trials = Number(process.env.TRIALS) || 150;
const EVERY = 35;

// The pass's flow table and feature set (fragments aside). A sampled session's record is copied and its feature state
// never freed, so that the copy's owner words still lead to its state.
const features = new FeatureSet();
const store = new SessionStore();
const copies = [];
let ended = 0;
const table = new FlowTable({
  createState: () => undefined,
  onStart: (session, packet) => features.start(session, packet),
  onPacket(session, packet) {
    const state = features.stateFor(session, packet);
    if (state >= 0) features.update(state, packet);
  },
  onEnd(session) {
    if (ended++ % EVERY !== 0) {
      features.end(session);
      return;
    }
    const from = session.store;
    const slot = store.add();
    store.words.set(
      from.words.subarray(from.recordWords * session.slot, from.recordWords * (session.slot + 1)),
      store.recordWords * slot,
    );
    copies.push(slot);
  },
});
const decoder = new PacketDecoder();
await readCapture(capture, (packet) => {
  const decoded = decoder.decode(packet);
  if (decoded.isFragment || (decoded.kind !== DecodeKind.Tcp && decoded.kind !== DecodeKind.Udp)) return;
  table.add(decoded, packet.tsSec, packet.tsNsec, decoded.ipLength, packet.index);
});
table.flush();

const records = copies.map((slot) => new Session(undefined, store, slot));
const row = new RowBuilder();

let best = Number.POSITIVE_INFINITY;
let bytes = 0;
for (let trial = 0; trial < trials; trial++) {
  const started = process.hrtime.bigint();
  bytes = 0;
  for (const session of records) {
    row.start();
    features.finish(features.stateOf(session), session, row);
    row.end();
    bytes += row.length;
  }
  best = Math.min(best, Number(process.hrtime.bigint() - started) / records.length);
}
console.log(
  `${best.toFixed(0)} ns a row (best of ${trials} loops over ${records.length} rows of ${ended}, ` +
    `${(bytes / records.length).toFixed(0)} bytes a row)`,
);
