// Splits worked out by hand (quotas, cuts, a gateway's group, campaigns) and the errors of a bad spec or bad keys.
import { describe, expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import { emptyKeys, splitsOf } from "../testing/split-keys.js";
import { apportion } from "./split-stratified.js";
import { assignSplits, type SplitMethod, type SplitSpec } from "./splits.js";

const TRAIN_TEST = [
  { name: "train", fraction: 0.8 },
  { name: "test", fraction: 0.2 },
];

describe("apportion", () => {
  it("gives the floors, then the rows left to the largest remainders, the earlier split on a tie", () => {
    expect(apportion(10, [1 / 3, 1 / 3, 1 / 3])).toEqual([4, 3, 3]);
    expect(apportion(7, [0.5, 0.5])).toEqual([4, 3]);
    expect(apportion(100, [0.29, 0.71])).toEqual([29, 71]);
    expect(apportion(9, [0.6, 0.15, 0.25])).toEqual([6, 1, 2]); // 5.4, 1.35, 2.25: one row left, to the .4
    expect(apportion(0, [0.8, 0.2])).toEqual([0, 0]);
  });
});

describe("assignSplits hand cases", () => {
  it("random: 10 sessions of one class in thirds give 4, 3, 3", () => {
    const thirds = ["a", "b", "c"].map((name) => ({ name, fraction: 1 / 3 }));
    const { counts } = assignSplits(emptyKeys(10), { method: "random", splits: thirds, seed: 5 });
    expect(counts).toEqual([[4], [3], [3]]);
  });

  it("time: cuts at the nearest start, ties together, moved to a window's edge and reported", () => {
    const keys = emptyKeys(20);
    for (let row = 0; row < 20; row++) keys.startUs[row] = (row + 1) * 1e6;
    const plain = assignSplits(keys, { method: "time", splits: TRAIN_TEST, seed: 0 });
    expect(plain.details.cutsUs).toEqual([17e6]);
    expect(plain.counts).toEqual([[16], [4]]);
    expect(plain.warnings).toEqual([]);
    // Starts 16 to 20 at one instant: a cut before them leaves 15 rows, after them 20; 15 is nearer 16.
    for (let row = 15; row < 20; row++) keys.startUs[row] = 16e6;
    expect(assignSplits(keys, { method: "time", splits: TRAIN_TEST, seed: 0 }).details.cutsUs).toEqual([16e6]);
    for (let row = 0; row < 20; row++) keys.startUs[row] = (row + 1) * 1e6;
    // A window over the sessions starting at 15 to 18 s: cuts at 16, 17, 18 s would split it; 15 s leaves 14 rows and
    // 19 s leaves 18, both 2 from 16: the earlier wins.
    for (let row = 14; row < 18; row++) keys.group[row] = 0;
    const moved = assignSplits(keys, { method: "time", splits: TRAIN_TEST, seed: 0 });
    expect(moved.details.cutsUs).toEqual([15e6]);
    expect(moved.details.unconstrainedCutsUs).toEqual([17e6]);
    expect(moved.counts).toEqual([[14], [6]]);
    expect(moved.warnings).toEqual([
      "time split: labelled groups (schedule windows) span the nearest cuts, which moved to their edges; " +
        "train gets 70 % instead of 80 %, test gets 30 % instead of 20 %",
    ]);
  });

  it("time: a window over everything leaves one split and says so", () => {
    const keys = emptyKeys(10);
    for (let row = 0; row < 10; row++) {
      keys.startUs[row] = row * 1e6;
      keys.group[row] = 0;
      keys.classId[row] = 1;
    }
    keys.classNames = ["benign", "dos"];
    const { details, counts, warnings } = assignSplits(keys, { method: "time", splits: TRAIN_TEST, seed: 0 });
    expect(details.cutsUs).toEqual([null]);
    expect(counts).toEqual([
      [0, 10],
      [0, 0],
    ]);
    expect(warnings[1]).toBe("time split: dos (10 sessions) has none in test");
  });

  it("host: a gateway's group makes 80/20 unreachable and the warning gives the achieved fractions", () => {
    // 90 clients each talk to the gateway (host 0); 10 more pairs talk only to each other.
    const keys = emptyKeys(100);
    for (let row = 0; row < 90; row++) {
      keys.hostA[row] = row + 1;
      keys.hostB[row] = 0;
    }
    for (let row = 90; row < 100; row++) {
      keys.hostA[row] = 100 + 2 * row;
      keys.hostB[row] = 101 + 2 * row;
    }
    const both = assignSplits(keys, { method: "host", splits: TRAIN_TEST, seed: 3 });
    expect(both.counts).toEqual([[90], [10]]);
    expect(both.warnings).toEqual([
      "host split: the largest connected group of hosts (91 addresses) holds 90 % of sessions; " +
        "train gets 90 % instead of 80 %, test gets 10 % instead of 20 %",
    ]);
    expect(both.details.largestGroups).toEqual([
      { sessions: 90, addresses: 91 },
      ...Array.from({ length: 9 }, () => ({ sessions: 1, addresses: 2 })),
    ]);
    // By initiator: every session is its own group, so 80/20 holds and the gateway is in both splits.
    const source = assignSplits(keys, { method: "host", splits: TRAIN_TEST, seed: 3, hostKey: "source" });
    expect(source.counts).toEqual([[80], [20]]);
    expect(source.warnings).toEqual([]);
    expect(splitsOf(keys.hostB, source.split, 100).get(0)?.size).toBe(2);
  });

  it("campaign: whole campaigns per class, largest first to the split furthest below its target", () => {
    // Class 1: campaigns 0, 1, 2 of 5, 3, 2 sessions; class 2: campaign 3 of 4; 20 benign sessions of no campaign.
    const sizes = [5, 3, 2, 4];
    const keys = emptyKeys(34);
    keys.classNames = ["benign", "dos", "scan"];
    let row = 0;
    sizes.forEach((size, group) => {
      for (let i = 0; i < size; i++, row++) {
        keys.group[row] = group;
        keys.classId[row] = group < 3 ? 1 : 2;
      }
    });
    // Class 1's targets 8 and 2: 5 → train (8 − 5 = 3 below), 3 → train (3 > 2), 2 → test.
    const { counts, details, warnings } = assignSplits(keys, { method: "campaign", splits: TRAIN_TEST, seed: 9 });
    expect(counts).toEqual([
      [16, 8, 4],
      [4, 2, 0],
    ]);
    expect(details.groupsPerSplit).toEqual([[0, 1, 3], [2]]);
    expect(warnings).toEqual(["campaign split: scan (4 sessions) has none in test"]);
  });
});

describe("assignSplits errors", () => {
  const keys = emptyKeys(3);
  const cases: [Partial<SplitSpec>, string][] = [
    [{ splits: [{ name: "train", fraction: 0.7 }] }, "split.splits: the fractions add up to 0.7, not 1"],
    [{ splits: [...TRAIN_TEST, { name: "test", fraction: 0 }] }, 'split.splits[2].name: "test" is used twice'],
    [{ splits: [{ name: "train", fraction: 1.5 }] }, "split.splits[0].fraction: 1.5 is not in [0, 1]"],
    [{ method: "day" as SplitMethod }, 'split.method: "day" is not a split method (time, host, campaign, random)'],
    [{ seed: 0.5 }, "split.seed: 0.5 is not an integer"],
  ];
  it.each(cases)("%j → %s", (change, message) => {
    expect(() => assignSplits(keys, { method: "random", splits: TRAIN_TEST, seed: 1, ...change })).toThrow(message);
    try {
      assignSplits(keys, { method: "random", splits: TRAIN_TEST, seed: 1, ...change });
    } catch (error) {
      expect(isTracemillError(error) && error.code).toBe("BAD_OPTION");
    }
  });

  it("refuses short key arrays and a start time that is not a number", () => {
    expect(() =>
      assignSplits({ ...keys, hostB: new Uint32Array(2) }, { method: "host", splits: TRAIN_TEST, seed: 1 }),
    ).toThrow("split keys: hostB holds 2 rows, fewer than 3");
    const startUs = Float64Array.of(1, Number.NaN, 3);
    expect(() => assignSplits({ ...keys, startUs }, { method: "time", splits: TRAIN_TEST, seed: 1 })).toThrow(
      "split keys: startUs of row 1 is NaN",
    );
  });
});
