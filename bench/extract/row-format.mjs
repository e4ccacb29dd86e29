// Row formatting alone, with every state in cache: a sample of a capture's real sessions (every 35th), copied out of
// the flow table when they end, then formatted over and over; prints the best nanoseconds per row of TRIALS loops
// (default 150). The best of many short loops is what stays comparable on a machine shared with other work.
// Usage: node bench/extract/row-format.mjs CAPTURE  (after `npx tsc -b`; bench-small is enough)

import { SessionStore } from "../../packages/core/dist/flow/session.js";
import { FeatureSet, RowBuilder, Session } from "../../packages/core/dist/index.js";
import { runFlowPipeline } from "../../packages/engine/dist/index.js";

const capture = process.argv[2];
const trials = Number(process.env.TRIALS) || 150;
const EVERY = 35;

const copies = [];
let ended = 0;
let stateNumbers = 0;
await runFlowPipeline(
  capture,
  {},
  {
    onSessionEnd(session, features) {
      stateNumbers = features.stateSize;
      if (ended++ % EVERY !== 0) return;
      const store = session.store;
      copies.push(store.words.slice(store.recordWords * session.slot, store.recordWords * (session.slot + 1)));
    },
  },
);

const store = new SessionStore(stateNumbers);
const sessions = copies.map((words) => {
  const slot = store.add();
  store.words.set(words, store.recordWords * slot);
  return slot;
});
const records = sessions.map((slot) => new Session(undefined, store, slot));
const features = new FeatureSet();
features.useSlab(store.numbers, store.recordNumbers, store.stateStart);
const row = new RowBuilder();

let best = Number.POSITIVE_INFINITY;
let bytes = 0;
for (let trial = 0; trial < trials; trial++) {
  const started = process.hrtime.bigint();
  bytes = 0;
  for (const session of records) {
    row.start();
    features.finish(features.stateOf(session.slot), session, row);
    row.end();
    bytes += row.length;
  }
  best = Math.min(best, Number(process.hrtime.bigint() - started) / records.length);
}
console.log(
  `${best.toFixed(0)} ns a row (best of ${trials} loops over ${records.length} rows of ${ended}, ` +
    `${(bytes / records.length).toFixed(0)} bytes a row)`,
);
