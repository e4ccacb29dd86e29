// The single-feature baseline for a text column: each value predicts the class most of its train rows have (weighted),
// a value train never saw the weighted majority of the whole train split.
import type { ClassBalance } from "./audit-score.js";
import { weightedMajority } from "./audit-score.js";

export interface CategoricalFit {
  train: number;
  test: number;
  /** Distinct values in train. */
  distinct: number;
  /** Test rows whose value train never saw. */
  unseen: number;
}

export function fitCategorical(
  train: { values: readonly string[]; classId: Uint32Array },
  test: { values: readonly string[]; classId: Uint32Array },
  balance: ClassBalance,
): CategoricalFit {
  const { classCount, weight, testCount } = balance;
  const ids = new Map<string, number>();
  let counts = new Float64Array(1024 * classCount);
  for (let row = 0; row < train.values.length; row++) {
    let id = ids.get(train.values[row]);
    if (id === undefined) {
      id = ids.size;
      ids.set(train.values[row], id);
      if ((id + 1) * classCount > counts.length) {
        const grown = new Float64Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
      }
    }
    counts[id * classCount + train.classId[row]]++;
  }
  const predicted = new Int32Array(ids.size);
  let trainHits = 0;
  for (let id = 0; id < ids.size; id++) {
    const c = weightedMajority(counts, id * classCount, balance);
    predicted[id] = c;
    trainHits += counts[id * classCount + c] * weight[c];
  }
  const testHits = new Float64Array(classCount);
  let unseen = 0;
  for (let row = 0; row < test.values.length; row++) {
    const id = ids.get(test.values[row]);
    if (id === undefined) unseen++;
    const c = id === undefined ? balance.fallback : predicted[id];
    if (c === test.classId[row]) testHits[c]++;
  }
  let recall = 0;
  for (let c = 0; c < classCount; c++) if (testCount[c] > 0) recall += testHits[c] / testCount[c];
  return {
    train: trainHits / balance.trainClasses,
    test: recall / balance.testClasses,
    distinct: ids.size,
    unseen,
  };
}
