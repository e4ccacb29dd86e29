// Row formatting alone, with every state in cache: a sample of a capture's real sessions (every 35th), copied out of
// the flow table when they end, then written over and over as the pass writes them (FeatureSet.write: a one-packet
// session's measuring columns come from the cache of their text after the first loop); FULL=1 formats every row from
// its state instead (finish(stateOf): a one-packet session's packet replayed, every column formatted). Prints the best
// nanoseconds per row of TRIALS loops (default 150). The best of many short loops is what stays comparable on a
// machine shared with other work.
// Usage: [PACKETS=n] [FULL=1] node bench/extract/row-format.mjs CAPTURE  (after `npx tsc -b`; bench-small is enough)

import { CHUNK_MASK, CHUNK_SHIFT, RECORD_WORDS, SessionStore } from "../../packages/core/dist/flow/session.js";
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
// PACKETS=n samples only the sessions of n packets (PACKETS=1: the one-packet rows, with their replay).
const only = Number(process.env.PACKETS) || 0;
const full = process.env.FULL === "1";

// The pass's flow table and feature set (fragments aside). A sampled session's record is copied and its feature state
// never freed, so that the copy's owner words still lead to its state.
const features = new FeatureSet();
const store = new SessionStore();
const copies = [];
let ended = 0;
const table = new FlowTable({
  onStart: (session, packet) => features.start(session, packet),
  onPacket(session, packet) {
    const state = features.stateFor(session, packet);
    if (state >= 0) features.update(state, packet);
  },
  onEnd(session) {
    if ((only > 0 && session.fwdPackets + session.bwdPackets !== only) || ended++ % EVERY !== 0) {
      features.end(session);
      return;
    }
    // The table's store is the view's (a TypeScript-private field): the record's words hold its numbers too.
    const from = session.store.wordChunks[session.slot >>> CHUNK_SHIFT];
    const at = RECORD_WORDS * (session.slot & CHUNK_MASK);
    const slot = store.add();
    store.wordChunks[slot >>> CHUNK_SHIFT].set(
      from.subarray(at, at + RECORD_WORDS),
      RECORD_WORDS * (slot & CHUNK_MASK),
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

// One view pointed at each copy in turn, as the flow table points its view at a record before onEnd.
const session = new Session(store);
const row = new RowBuilder();

let best = Number.POSITIVE_INFINITY;
let bytes = 0;
for (let trial = 0; trial < trials; trial++) {
  const started = process.hrtime.bigint();
  bytes = 0;
  for (const slot of copies) {
    session.point(slot);
    row.start();
    if (full) features.finish(features.stateOf(session), session, row);
    else features.write(session, row);
    row.end();
    bytes += row.length;
  }
  best = Math.min(best, Number(process.hrtime.bigint() - started) / copies.length);
}
console.log(
  `${best.toFixed(0)} ns a row (best of ${trials} loops over ${copies.length} rows of ${ended}, ` +
    `${(bytes / copies.length).toFixed(0)} bytes a row)`,
);
