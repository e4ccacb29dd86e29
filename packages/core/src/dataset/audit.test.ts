// The leakage audit: planted columns flagged or not, scores against a brute-force search over every threshold written
// here (no bins), identifier names against the feature sets' columns, and the time a million rows × 100 columns take.
import { describe, expect, it } from "vitest";
import { CIC_COMPAT_KEY, FEATURE_SETS, SESSION_KEY } from "../features/index.js";
import { seededRandom } from "../testing/seeded-random.js";
import { type AuditInput, auditColumns, IDENTIFIER_COLUMN_NAMES } from "./audit.js";

type Column = Float64Array | string[];

/** A two-split audit input from per-row class ids and columns built from (class, random). */
function planted(
  seed: number,
  rows: { train: number; test: number },
  classOf: (random: () => number) => number,
  columns: Record<string, (classId: number, random: () => number) => number | string>,
  classCount = 2,
): AuditInput {
  const random = seededRandom(seed);
  const part = (count: number) => {
    const classId = new Uint32Array(count);
    for (let row = 0; row < count; row++) classId[row] = classOf(random);
    const built = Object.values(columns).map((make): Column => {
      const values = Array.from(classId, (c) => make(c, random));
      return typeof values[0] === "string" ? (values as string[]) : Float64Array.from(values as number[]);
    });
    return { classId, columns: built };
  };
  return { classCount, train: part(rows.train), test: part(rows.test), names: Object.keys(columns) };
}

const half = (random: () => number): number => (random() < 0.5 ? 0 : 1);

/**
 * The best partition of the train values into at most `intervals` intervals: cuts at the distinct train numbers
 * (x ≤ t on the left) and, when train has NaN, one between every number and NaN; each interval predicts its class
 * weighted 1/n. The train score, and the test scores of every partition reaching it.
 */
function bruteForce(
  train: { values: number[]; classes: number[] },
  test: { values: number[]; classes: number[] },
  classCount: number,
  intervals: number,
): { train: number; tests: number[] } {
  const numbers = [...new Set(train.values.filter((v) => !Number.isNaN(v)))].sort((a, b) => a - b);
  const thresholds: number[] = numbers.slice(0, -1);
  if (train.values.some(Number.isNaN)) thresholds.push(Number.NaN);
  const trainCount = Array.from({ length: classCount }, (_, c) => train.classes.filter((k) => k === c).length);
  const testCount = Array.from({ length: classCount }, (_, c) => test.classes.filter((k) => k === c).length);
  // A number's leaf: the number cuts below it; NaN's: the last leaf (its own when there is a NaN cut).
  const leafOf = (cuts: number[], v: number): number =>
    Number.isNaN(v) ? cuts.length : cuts.filter((t) => !Number.isNaN(t) && v > t).length;
  const balanced = (values: number[], classes: number[], count: number[], predict: (v: number) => number): number => {
    const recalls = count.map((n, c) => {
      if (n === 0) return null;
      return values.filter((v, row) => classes[row] === c && predict(v) === c).length / n;
    });
    const present = recalls.filter((r): r is number => r !== null);
    return present.reduce((a, b) => a + b, 0) / present.length;
  };
  const partitions: number[][] = [[]];
  for (let size = 1; size < intervals; size++) {
    for (const partition of partitions.filter((p) => p.length === size - 1)) {
      const last = partition[partition.length - 1];
      if (Number.isNaN(last)) continue; // the NaN cut is the last one
      const from = partition.length === 0 ? 0 : thresholds.indexOf(last) + 1;
      for (let i = from; i < thresholds.length; i++) partitions.push([...partition, thresholds[i]]);
    }
  }
  const scored = partitions.map((cuts) => {
    const leafClass = Array.from({ length: cuts.length + 1 }, (_, leaf) => {
      let best = -1;
      let bestHits = 0;
      for (let c = 0; c < classCount; c++) {
        if (trainCount[c] === 0) continue;
        const n = train.values.filter((v, row) => train.classes[row] === c && leafOf(cuts, v) === leaf).length;
        if (best < 0 || n / trainCount[c] > bestHits) [best, bestHits] = [c, n / trainCount[c]];
      }
      return best;
    });
    const predict = (v: number) => leafClass[leafOf(cuts, v)];
    return {
      train: balanced(train.values, train.classes, trainCount, predict),
      test: balanced(test.values, test.classes, testCount, predict),
    };
  });
  const best = Math.max(...scored.map((s) => s.train));
  return { train: best, tests: scored.filter((s) => s.train > best - 1e-9).map((s) => s.test) };
}

describe("auditColumns", () => {
  it("flags a column that alone separates the classes, and shows its threshold", () => {
    // 100 distinct values: each its own bin, so the cut falls exactly between the classes.
    const input = planted(1, { train: 4000, test: 1000 }, half, {
      leak: (c, r) => c * 100 + Math.floor(r() * 50),
      noise: (_, r) => r(),
    });
    const [leak, noise] = auditColumns(input, { depth: 1, threshold: 0.9 });
    expect(leak).toMatchObject({ column: "leak", balancedAccuracy: 1, flagged: true, reason: "score" });
    expect(leak.detail).toBe("≤ 49 → class 0, > 49 → class 1; train 1.000");
    expect(noise).toMatchObject({ flagged: false, reason: null });
  });

  it("does not flag random columns: their balanced accuracy stays near one over the number of classes", () => {
    for (const classCount of [2, 3, 5]) {
      const input = planted(
        classCount,
        { train: 40_000, test: 10_000 },
        (r) => Math.floor(r() * classCount),
        { uniform: (_, r) => r(), small: (_, r) => Math.floor(r() * 6), text: (_, r) => `v${Math.floor(r() * 300)}` },
        classCount,
      );
      for (const row of auditColumns(input, { depth: 2, threshold: 0.9 })) {
        expect(row.flagged).toBe(false);
        expect(Math.abs((row.balancedAccuracy as number) - 1 / classCount)).toBeLessThan(0.03);
      }
    }
  });

  it("catches a middle band of values (attack between two thresholds) at depth 2, not at depth 1", () => {
    // Benign in [0, 1) and [2, 3), attack in [1, 2): one threshold gets one benign side right and the attack, 0.75.
    const input = planted(3, { train: 6000, test: 3000 }, (r) => (r() < 1 / 3 ? 1 : 0), {
      band: (c, r) => (c === 1 ? 1 + r() : r() < 0.5 ? r() : 2 + r()),
    });
    const [shallow] = auditColumns(input, { depth: 1, threshold: 0.9 });
    const [deep] = auditColumns(input, { depth: 2, threshold: 0.9 });
    expect(shallow.flagged).toBe(false);
    expect(Math.abs((shallow.balancedAccuracy as number) - 0.75)).toBeLessThan(0.02);
    expect(deep).toMatchObject({ flagged: true, reason: "score" });
    // 9 000 distinct values in 256 quantile bins: a bin may straddle a class boundary, so almost 1, not exactly.
    expect(deep.balancedAccuracy).toBeGreaterThan(0.99);
  });

  it("flags identifiers by name whatever their score", () => {
    const input = planted(4, { train: 2000, test: 500 }, half, {
      dstPrt: (_, r) => Math.floor(r() * 65536),
      "Source IP": (_, r) => `10.0.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}`,
      Timestamp: (c, r) => c * 1e9 + r() * 1e6,
      bytes: (_, r) => r(),
    });
    const rows = auditColumns(input, { depth: 2, threshold: 0.9 });
    expect(rows.map((row) => row.reason)).toEqual(["identifier", "identifier", "score+identifier", null]);
    expect(rows[0].balancedAccuracy).toBeLessThan(0.6);
    expect(rows[0].detail).toMatch(/; the name is an identifier's \(address, port, time or flow id\)$/);
    // A pattern of one's own replaces the default one.
    const own = auditColumns(input, { depth: 2, threshold: 0.9, identifierNames: /^bytes$/g });
    expect(own.map((row) => row.reason)).toEqual([null, null, "score", "identifier"]);
  });

  it("matches the identifier columns of the feature sets and no feature column", () => {
    const keys = [SESSION_KEY, CIC_COMPAT_KEY].flatMap((set) =>
      set.groups.flatMap((g) => g.columns.map((c) => c.name)),
    );
    const features = FEATURE_SETS.flatMap((set) => set.groups.flatMap((g) => g.columns.map((c) => c.name)));
    const matching = (names: string[]) => names.filter((name) => IDENTIFIER_COLUMN_NAMES.test(name));
    expect(matching(keys)).toEqual(keys.filter((name) => !/^protocol$/i.test(name)));
    expect(matching(features)).toEqual([
      "bidirectional_first_seen_ms",
      "bidirectional_last_seen_ms",
      "src2dst_first_seen_ms",
      "src2dst_last_seen_ms",
      "dst2src_first_seen_ms",
      "dst2src_last_seen_ms",
    ]);
    const others = ["src_ip", "dst_port", " Source Port", "Flow ID", "id", "vlan_id", "src_mac", "Destination IP"];
    expect(matching(others)).toEqual(others);
    expect(matching(["Flow Duration", "idle_mean", "Protocol", "dst_bytes", "splt_ps", "timeout"])).toEqual([]);
  });

  it("scores as a brute-force search over every threshold does, at depth 1 and 2", () => {
    const random = seededRandom(5);
    let compared = 0;
    for (let trial = 0; trial < 300; trial++) {
      const classCount = 2 + Math.floor(random() * 2);
      const value = () => (random() < 0.1 ? Number.NaN : Math.floor(random() * 7) - (random() < 0.1 ? 0.5 : 0));
      const part = (rows: number) => {
        const classes = Array.from({ length: rows }, () => Math.floor(random() * classCount));
        return { values: classes.map(value), classes };
      };
      const train = part(4 + Math.floor(random() * 20));
      const test = part(4 + Math.floor(random() * 20));
      const input: AuditInput = {
        classCount,
        train: { classId: Uint32Array.from(train.classes), columns: [Float64Array.from(train.values)] },
        test: { classId: Uint32Array.from(test.classes), columns: [Float64Array.from(test.values)] },
        names: ["x"],
      };
      for (const depth of [1, 2] as const) {
        const [row] = auditColumns(input, { depth, threshold: 0.9 });
        const classesIn = (classes: number[]) => new Set(classes).size;
        if (classesIn(train.classes) < 2 || classesIn(test.classes) < 2) {
          expect(row.balancedAccuracy).toBeNull();
          continue;
        }
        const expected = bruteForce(train, test, classCount, depth === 1 ? 2 : 4);
        expect(row.trainBalancedAccuracy).toBeCloseTo(expected.train, 9);
        expect(expected.tests.some((score) => Math.abs(score - (row.balancedAccuracy as number)) < 1e-9)).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it("describes intervals with their bounds and classes, NaN in its own bin", () => {
    const band: AuditInput = {
      classCount: 2,
      classNames: ["benign", "dos"],
      train: { classId: Uint32Array.of(0, 0, 1, 1, 0, 0), columns: [Float64Array.of(1, 2, 3, 4, 5, 6)] },
      test: { classId: Uint32Array.of(0, 1, 0, 0), columns: [Float64Array.of(1.5, 3.5, 10, Number.NaN)] },
      names: ["x"],
    };
    expect(auditColumns(band, { depth: 2, threshold: 0.9 })[0]).toMatchObject({
      balancedAccuracy: 1,
      detail: "≤ 2 → benign, ≤ 4 → dos, > 4 → benign; train 1.000",
    });
    const missing: AuditInput = {
      ...band,
      train: { classId: Uint32Array.of(0, 0, 1, 1), columns: [Float64Array.of(7, 7, Number.NaN, Number.NaN)] },
      test: { classId: Uint32Array.of(0, 1, 1), columns: [Float64Array.of(3, Number.NaN, 7)] },
    };
    // Test: benign 3 → benign (right), NaN → dos (right), dos 7 → benign (wrong): recalls 1 and 1/2.
    expect(auditColumns(missing, { depth: 1, threshold: 0.9 })[0]).toMatchObject({
      balancedAccuracy: 0.75,
      detail: "every value → benign, NaN → dos; train 1.000",
    });
  });

  it("scores text columns by each value's weighted majority, unseen values as the overall one", () => {
    // Train: a → benign (2 of 2 benign), b and c → dos. Weighted by 1/2 and 1/3, so b's one benign row and two dos
    // rows vote dos (1/2 < 2/3). Test: a right, b right, d unseen → benign, wrong: recalls 1 and 1/2.
    const input: AuditInput = {
      classCount: 2,
      classNames: ["benign", "dos"],
      train: { classId: Uint32Array.of(0, 0, 1, 1, 1), columns: [["a", "a", "b", "b", "c"]] },
      test: { classId: Uint32Array.of(0, 1, 1), columns: [["a", "b", "d"]] },
      names: ["service"],
    };
    const [row] = auditColumns(input, { depth: 2, threshold: 0.9 });
    expect(row).toMatchObject({ balancedAccuracy: 0.75, flagged: false });
    expect(row.trainBalancedAccuracy).toBeCloseTo(1, 12);
    expect(row.detail).toBe("3 values in train; 33.3 % of test rows have a value train lacks; train 1.000");
  });

  it("gives no score when a split holds one class, and says why", () => {
    const input = planted(6, { train: 100, test: 50 }, half, { leak: (c) => c, dstIP: (c) => `10.0.0.${c}` });
    input.test.classId.fill(0);
    const rows = auditColumns({ ...input, classNames: ["benign", "dos"] }, { depth: 2, threshold: 0.9 });
    expect(rows[0]).toMatchObject({ balancedAccuracy: null, flagged: false, reason: null });
    expect(rows[0].detail).toBe("the test split holds only benign: balanced accuracy needs two classes");
    expect(rows[1]).toMatchObject({ balancedAccuracy: null, flagged: true, reason: "identifier" });
  });

  it("refuses inputs that do not fit together and options out of range", () => {
    const input = planted(7, { train: 10, test: 10 }, half, { a: (_, r) => r(), b: (_, r) => `${r()}` });
    expect(() => auditColumns({ ...input, names: ["a"] }, { depth: 2, threshold: 0.9 })).toThrow(
      "audit: the train split has 2 columns for 1 names",
    );
    const swapped = { ...input, test: { ...input.test, columns: [input.test.columns[1], input.test.columns[0]] } };
    expect(() => auditColumns(swapped, { depth: 2, threshold: 0.9 })).toThrow(
      'audit: column "a" is numeric in one split and text in the other',
    );
    const short = { ...input, test: { ...input.test, classId: input.test.classId.subarray(0, 9) } };
    expect(() => auditColumns(short, { depth: 2, threshold: 0.9 })).toThrow(
      'audit: column "a" has 10 test rows for 9 classes',
    );
    expect(() => auditColumns({ ...input, classCount: 1 }, { depth: 2, threshold: 0.9 })).toThrow(
      /^audit: train row \d has class id 1, not below 1$/,
    );
    expect(() => auditColumns(input, { depth: 3 as 2, threshold: 0.9 })).toThrow("audit.depth: 3 is neither 1 nor 2");
    expect(() => auditColumns(input, { depth: 1, threshold: 0 })).toThrow("audit.threshold: 0 is not in (0, 1]");
  });

  it("flags the leaking columns among 100 of many kinds", () => {
    const random = seededRandom(8);
    const rows = { train: 80_000, test: 20_000 };
    // Four classes: depth 2 has four intervals, so one column can separate them all.
    const classes = (count: number) => {
      const classId = new Uint32Array(count);
      for (let row = 0; row < count; row++) classId[row] = random() < 0.7 ? 0 : 1 + Math.floor(random() * 3);
      return classId;
    };
    const train = classes(rows.train);
    const test = classes(rows.test);
    // Ten kinds of column, each used ten times: continuous, few values, heavy ties, a leak, NaNs.
    const kinds: ((c: number) => number)[] = [
      () => random() * 1e6,
      () => Math.floor(random() * 5),
      () => (random() < 0.9 ? 0 : random()),
      (c) => c * 10 + random(),
      () => (random() < 0.3 ? Number.NaN : random()),
      () => Math.floor(random() * 65536),
      (c) => random() * c,
      () => 1.7e15 + Math.floor(random() * 3.6e9),
      (c) => (c === 0 ? random() : random() * 2),
      () => Math.floor(-Math.log(random()) * 100),
    ];
    const columnsOf = (classId: Uint32Array) =>
      kinds.map((make) => {
        const values = new Float64Array(classId.length);
        for (let row = 0; row < values.length; row++) values[row] = make(classId[row]);
        return values;
      });
    const trainKinds = columnsOf(train);
    const testKinds = columnsOf(test);
    const pick = (built: Float64Array[]) => Array.from({ length: 100 }, (_, i) => built[i % 10]);
    const input: AuditInput = {
      classCount: 4,
      train: { classId: train, columns: pick(trainKinds) },
      test: { classId: test, columns: pick(testKinds) },
      names: Array.from({ length: 100 }, (_, i) => `column${i}`),
    };
    const audited = auditColumns(input, { depth: 2, threshold: 0.9 });
    expect(audited.filter((row) => row.flagged).map((row) => row.column)).toEqual(
      Array.from({ length: 10 }, (_, i) => `column${i * 10 + 3}`),
    );
  });
});
