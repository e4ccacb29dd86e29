// The single-feature baseline for a numeric column: the best split of its values into at most 2 (depth 1) or 4
// (depth 2) intervals on the train split, by balanced accuracy, over at most 256 quantile bins, scored on the test split.
import { type ClassBalance, scoreLeaves } from "./audit-score.js";

/** Value bins per column, as histogram GBDTs use: fine enough for a baseline, and each column costs O(rows). */
export const MAX_BINS = 256;
/** Train values the bin edges are taken from; a larger train split is sampled. */
export const EDGE_SAMPLE = 1 << 16;

/** A fitted column: bin edges, the intervals' upper bins and their classes, the two scores. */
export interface NumericFit {
  /** Upper bounds of value bins 0…edges.length-1; the last value bin holds everything above; NaN after it. */
  edges: Float64Array;
  /** Each interval's last bin (inclusive), ascending; the last interval ends at the last bin. */
  intervalEnds: number[];
  /** Whether the last interval is NaN alone. */
  nanAlone: boolean;
  leafClass: number[];
  train: number;
  test: number;
}

/**
 * Sorted train values (the sample's, when given) → bin edges: every distinct value its own bin when there are at most
 * MAX_BINS of them, else quantiles. NaN never makes an edge.
 */
export function binEdges(values: Float64Array, sample: Uint32Array | null): Float64Array {
  let picked = values;
  if (sample === null) picked = values.slice();
  else {
    picked = new Float64Array(sample.length);
    for (let i = 0; i < sample.length; i++) picked[i] = values[sample[i]];
  }
  picked.sort(); // NaN sorts last
  let numbers = picked.length;
  while (numbers > 0 && Number.isNaN(picked[numbers - 1])) numbers--;
  let distinct = 0;
  for (let i = 0; i < numbers; i++) if (i === 0 || picked[i] !== picked[i - 1]) distinct++;
  const edges: number[] = [];
  if (distinct <= MAX_BINS) {
    for (let i = 0; i < numbers - 1; i++) if (picked[i] !== picked[i + 1]) edges.push(picked[i]);
  } else {
    for (let k = 1; k < MAX_BINS; k++) {
      const value = picked[Math.ceil((k * numbers) / MAX_BINS) - 1];
      if (value < picked[numbers - 1] && (edges.length === 0 || value > edges[edges.length - 1])) edges.push(value);
    }
  }
  return Float64Array.from(edges);
}

/**
 * Adds each row's class to the histogram of its bin (bins × classes, NaN at bin `edges.length + 1`). The search is a
 * fixed eight steps over the edges padded to 256 with +∞, without branches: twice as fast as a branching search.
 */
export function addToHistogram(
  values: Float64Array,
  classId: Uint32Array,
  padded: Float64Array,
  nanBin: number,
  classCount: number,
  histogram: Float64Array,
): void {
  for (let row = 0; row < values.length; row++) {
    const v = values[row];
    let b = +(padded[127] < v) << 7;
    b += +(padded[b + 63] < v) << 6;
    b += +(padded[b + 31] < v) << 5;
    b += +(padded[b + 15] < v) << 4;
    b += +(padded[b + 7] < v) << 3;
    b += +(padded[b + 3] < v) << 2;
    b += +(padded[b + 1] < v) << 1;
    b += +(padded[b] < v);
    histogram[(Number.isNaN(v) ? nanBin : b) * classCount + classId[row]]++;
  }
}

/** Edges padded with +∞ to MAX_BINS entries for addToHistogram. */
export function padEdges(edges: Float64Array): Float64Array {
  const padded = new Float64Array(MAX_BINS).fill(Number.POSITIVE_INFINITY);
  padded.set(edges);
  return padded;
}

/**
 * The best partition of the train histogram's bins into contiguous intervals (at most 2 for depth 1, 4 for depth 2,
 * which is every depth-2 tree over one feature), each interval predicting its weighted-majority class; fewer
 * intervals win ties. `score` is a scratch table of (bins + 1)² entries.
 */
export function fitIntervals(
  trainHistogram: Float64Array,
  bins: number,
  balance: ClassBalance,
  depth: 1 | 2,
  score: Float64Array,
): number[] {
  const { classCount, weight } = balance;
  const width = bins + 1;
  // score[i × width + j]: the weighted hits of the interval of bins [i, j) predicting its best class.
  const prefix = new Float64Array(width * classCount);
  for (let b = 0; b < bins; b++) {
    for (let c = 0; c < classCount; c++) {
      prefix[(b + 1) * classCount + c] = prefix[b * classCount + c] + trainHistogram[b * classCount + c];
    }
  }
  for (let i = 0; i < bins; i++) {
    for (let j = i + 1; j <= bins; j++) {
      let best = 0;
      for (let c = 0; c < classCount; c++) {
        const hits = (prefix[j * classCount + c] - prefix[i * classCount + c]) * weight[c];
        if (hits > best) best = hits;
      }
      score[i * width + j] = best;
    }
  }
  // The best one-cut split of [from, to) (cut -1: none), for every prefix [0, r) and every suffix [r, bins).
  const prefixBest = new Float64Array(width);
  const prefixCut = new Int32Array(width).fill(-1);
  const suffixBest = new Float64Array(width);
  const suffixCut = new Int32Array(width).fill(-1);
  for (let r = 1; r <= bins; r++) {
    prefixBest[r] = score[r];
    for (let t = 1; t < r; t++) {
      const candidate = score[t] + score[t * width + r];
      if (candidate > prefixBest[r] + EPSILON) {
        prefixBest[r] = candidate;
        prefixCut[r] = t;
      }
    }
  }
  if (depth === 1) return prefixCut[bins] < 0 ? [] : [prefixCut[bins]];
  for (let r = 0; r < bins; r++) {
    suffixBest[r] = score[r * width + bins];
    for (let t = r + 1; t < bins; t++) {
      const candidate = score[r * width + t] + score[t * width + bins];
      if (candidate > suffixBest[r] + EPSILON) {
        suffixBest[r] = candidate;
        suffixCut[r] = t;
      }
    }
  }
  let best = prefixBest[bins];
  let cuts = prefixCut[bins] < 0 ? [] : [prefixCut[bins]];
  for (let r = 1; r < bins; r++) {
    if (prefixBest[r] + suffixBest[r] > best + EPSILON) {
      best = prefixBest[r] + suffixBest[r];
      cuts = [prefixCut[r], r, suffixCut[r]].filter((cut) => cut >= 0);
    }
  }
  return cuts;
}

/** Sums of a few weighted counts that are equal on paper may differ in the last bit: a gain must beat this. */
const EPSILON = 1e-12;

/** Fits the column on train and scores it on test: the whole numeric baseline. */
export function fitNumeric(
  train: { values: Float64Array; classId: Uint32Array },
  test: { values: Float64Array; classId: Uint32Array },
  sample: Uint32Array | null,
  balance: ClassBalance,
  depth: 1 | 2,
  score: Float64Array,
): NumericFit {
  const { classCount } = balance;
  const edges = binEdges(train.values, sample);
  const padded = padEdges(edges);
  const valueBins = edges.length + 1;
  const trainHistogram = new Float64Array((valueBins + 1) * classCount);
  addToHistogram(train.values, train.classId, padded, valueBins, classCount, trainHistogram);
  let trainNaN = 0;
  for (let c = 0; c < classCount; c++) trainNaN += trainHistogram[valueBins * classCount + c];
  // NaN is a bin after every number when train has NaN; otherwise test NaN joins the last (largest) values.
  const bins = trainNaN > 0 ? valueBins + 1 : valueBins;
  const testHistogram = new Float64Array((valueBins + 1) * classCount);
  addToHistogram(test.values, test.classId, padded, bins - 1, classCount, testHistogram);
  const cuts = fitIntervals(trainHistogram, bins, balance, depth, score);
  const intervalEnds = [...cuts.map((cut) => cut - 1), bins - 1];
  const scored = scoreLeaves(trainHistogram, testHistogram, intervalEnds, balance);
  return {
    edges,
    intervalEnds,
    nanAlone: trainNaN > 0 && cuts[cuts.length - 1] === valueBins,
    leafClass: scored.leafClass,
    train: scored.train,
    test: scored.test,
  };
}
