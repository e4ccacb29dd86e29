// The dataset build's pure steps alone, CPU time: each split method over 1.5 M sessions' keys, and the leakage audit
// over 1 M rows × 100 columns (seeded synthetic data, the shapes a capture gives).
// Usage: npx tsc -b packages/core && node bench/dataset/splits-audit.mjs [ROWS=1500000]
import { assignSplits, auditColumns, SeededRandom } from "../../packages/core/dist/index.js";

const rows = Number(process.argv[2] ?? 1_500_000);
const random = new SeededRandom(99);
const uniform = () => random.uint32() / 2 ** 32;
const hosts = Math.max(1, Math.floor(rows / 4));
const keys = {
  count: rows,
  classId: Uint32Array.from({ length: rows }, () => (uniform() < 0.8 ? 0 : 1 + random.below(3))),
  startUs: Float64Array.from({ length: rows }, (_, i) => 1.7e15 + i * 1000),
  hostA: Uint32Array.from({ length: rows }, () => random.below(hosts)),
  hostB: Uint32Array.from({ length: rows }, () => random.below(hosts)),
  group: Int32Array.from({ length: rows }, () => (uniform() < 0.1 ? random.below(50) : -1)),
};
const splits = [
  { name: "train", fraction: 0.8 },
  { name: "test", fraction: 0.2 },
];
const cpu = (work) => {
  const started = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(started);
  return ((user + system) / 1000).toFixed(0);
};
for (const method of ["random", "time", "host", "campaign"]) {
  console.log(`split ${method}, ${rows} rows: ${cpu(() => assignSplits(keys, { method, splits, seed: 1 }))} ms CPU`);
}
const sample = (count) => ({
  classId: keys.classId.subarray(0, count),
  columns: Array.from({ length: 100 }, (_, c) => Float64Array.from({ length: count }, () => uniform() * (c + 1))),
});
const train = sample(Math.floor(rows * 0.53));
const test = sample(Math.floor(rows * 0.13));
const names = Array.from({ length: 100 }, (_, i) => `column${i}`);
console.log(
  `audit, ${train.classId.length} + ${test.classId.length} rows × 100 columns: ${cpu(() => auditColumns({ classCount: 4, train, test, names }, { depth: 2, threshold: 0.9 }))} ms CPU`,
);
