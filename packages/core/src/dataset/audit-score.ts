// Balanced accuracy for the audit's baselines: classes weighted 1/n on train so each class counts the same, and the
// test score the mean recall over the classes the test split holds.

/** The classes of one audit: weights from the train split, counts from the test split. */
export interface ClassBalance {
  classCount: number;
  /** 1 / (train rows of the class), 0 for a class train lacks (it is never predicted). */
  weight: Float64Array;
  /** Classes with train rows. */
  trainClasses: number;
  testCount: Float64Array;
  /** Classes with test rows. */
  testClasses: number;
  /** The class predicted where train says nothing (an unseen value): the weighted majority of the whole train split. */
  fallback: number;
}

export function classBalance(classCount: number, trainClassId: Uint32Array, testClassId: Uint32Array): ClassBalance {
  const trainCount = new Float64Array(classCount);
  const testCount = new Float64Array(classCount);
  for (let row = 0; row < trainClassId.length; row++) trainCount[trainClassId[row]]++;
  for (let row = 0; row < testClassId.length; row++) testCount[testClassId[row]]++;
  const weight = trainCount.map((n) => (n > 0 ? 1 / n : 0));
  // Weighted, every class with train rows totals 1: the majority is the lowest such class id.
  const fallback = Math.max(
    0,
    trainCount.findIndex((n) => n > 0),
  );
  return {
    classCount,
    weight,
    trainClasses: trainCount.filter((n) => n > 0).length,
    testCount,
    testClasses: testCount.filter((n) => n > 0).length,
    fallback,
  };
}

/** The class with the most weighted train rows among counts[offset…offset + classCount); the lower id on a tie. */
export function weightedMajority(counts: Float64Array, offset: number, balance: ClassBalance): number {
  let best = balance.fallback;
  let bestHits = 0;
  for (let c = 0; c < balance.classCount; c++) {
    const hits = counts[offset + c] * balance.weight[c];
    if (hits > bestHits) {
      best = c;
      bestHits = hits;
    }
  }
  return best;
}

/**
 * Each leaf (a run of bins ending at intervalEnds[i], inclusive) predicts its weighted-majority class: the train
 * balanced accuracy (mean recall over train's classes) and the test one (over test's classes).
 */
export function scoreLeaves(
  trainHistogram: Float64Array,
  testHistogram: Float64Array,
  intervalEnds: readonly number[],
  balance: ClassBalance,
): { leafClass: number[]; train: number; test: number } {
  const { classCount, weight, testCount } = balance;
  const leafClass: number[] = [];
  const interval = new Float64Array(classCount);
  let trainHits = 0;
  const testHits = new Float64Array(classCount);
  let start = 0;
  for (const end of intervalEnds) {
    interval.fill(0);
    for (let b = start; b <= end; b++) {
      for (let c = 0; c < classCount; c++) interval[c] += trainHistogram[b * classCount + c];
    }
    const predicted = weightedMajority(interval, 0, balance);
    leafClass.push(predicted);
    trainHits += interval[predicted] * weight[predicted];
    for (let b = start; b <= end; b++) testHits[predicted] += testHistogram[b * classCount + predicted];
    start = end + 1;
  }
  let recall = 0;
  for (let c = 0; c < classCount; c++) if (testCount[c] > 0) recall += testHits[c] / testCount[c];
  return { leafClass, train: trainHits / balance.trainClasses, test: recall / balance.testClasses };
}
