// Label matching: direction-free keys, 5-tuple sets, provenance ranges and alert matching with priorities and time.
import { describe, expect, it } from "vitest";
import { AlertMatcher, type LabelAlert } from "./alert-matcher.js";
import { AttackTupleSet } from "./attack-tuples.js";
import { endpointPairKey } from "./endpoint-key.js";
import { AttackPacketRanges } from "./packet-origin.js";

const A = new Uint8Array([10, 0, 0, 1]);
const B = new Uint8Array([10, 0, 0, 2]);
const C = new Uint8Array([192, 168, 1, 9]);
const V6 = new Uint8Array(16).fill(0x20);

function alert(overrides: Partial<LabelAlert>): LabelAlert {
  return {
    timeUs: 1_000_000_000,
    protocol: 6,
    addressLength: 4,
    src: A,
    srcPort: 1234,
    dst: B,
    dstPort: 80,
    priority: 2,
    classId: 5,
    className: "web-application-attack",
    generatorId: 1,
    signatureId: 100,
    ...overrides,
  };
}

describe("endpointPairKey", () => {
  it("is the same in both directions and differs by protocol, port and address", () => {
    const key = endpointPairKey(6, 4, A, 1234, B, 80);
    expect(endpointPairKey(6, 4, B, 80, A, 1234)).toBe(key);
    expect(endpointPairKey(17, 4, A, 1234, B, 80)).not.toBe(key);
    expect(endpointPairKey(6, 4, A, 1235, B, 80)).not.toBe(key);
    expect(endpointPairKey(6, 4, A, 80, B, 1234)).not.toBe(key);
    expect(endpointPairKey(6, 4, A, 1234, C, 80)).not.toBe(key);
  });

  it("reads only addressLength bytes of reused 16-byte buffers", () => {
    const a = new Uint8Array(16);
    a.set(A);
    a[10] = 99;
    expect(endpointPairKey(6, 4, a, 1, B, 2)).toBe(endpointPairKey(6, 4, A, 1, B, 2));
    expect(endpointPairKey(6, 16, V6, 1, V6, 2)).toBe(endpointPairKey(6, 16, V6, 2, V6, 1));
    expect(endpointPairKey(6, 16, a, 1, B, 2)).not.toBe(endpointPairKey(6, 4, a, 1, B, 2));
  });
});

describe("AttackTupleSet", () => {
  it("finds a conversation in either direction only for the same 5-tuple", () => {
    const set = new AttackTupleSet();
    set.add(6, 4, A, 4000, B, 22);
    set.add(6, 4, B, 22, A, 4000);
    expect(set.size).toBe(1);
    const key = endpointPairKey(6, 4, A, 4000, B, 22);
    expect(set.find(6, 4, B, 22, A, 4000)).toBe(key);
    expect(set.find(6, 4, A, 4000, B, 22)).toBe(key);
    expect(set.find(6, 4, A, 4001, B, 22)).toBeUndefined();
    expect(set.find(17, 4, A, 4000, B, 22)).toBeUndefined();
  });
});

describe("AttackPacketRanges", () => {
  it("answers in increasing order, after going back, and merges overlapping ranges", () => {
    const ranges = new AttackPacketRanges([
      { start: 10, end: 12 },
      { start: 3, end: 5 },
      { start: 4, end: 7 },
      { start: 20, end: 20 },
    ]);
    expect(ranges.packetCount).toBe(6);
    const wanted = [3, 4, 5, 6, 10, 11];
    for (let i = 0; i < 25; i++) expect(ranges.isAttack(i), String(i)).toBe(wanted.includes(i));
    expect(ranges.isAttack(4)).toBe(true);
    expect(ranges.isAttack(8)).toBe(false);
    expect(ranges.isAttack(11)).toBe(true);
    expect(ranges.isAttack(0)).toBe(false);
  });
});

describe("AlertMatcher", () => {
  const second = 1_000_000;

  it("matches an alert in either direction within the session and its tolerance", () => {
    const inside = alert({ timeUs: 5 * second });
    const justAfter = alert({ timeUs: 10 * second + 1_000_000, src: B, srcPort: 80, dst: A, dstPort: 1234 });
    const tooLate = alert({ timeUs: 10 * second + 1_000_001 });
    const matcher = new AlertMatcher([inside, justAfter, tooLate], { toleranceUs: second });
    expect(matcher.match(6, 4, A, 1234, B, 80, 4 * second, 10 * second)).toBe(inside);
    expect(matcher.unmatched()).toEqual([tooLate]);
  });

  it("lets the lowest priority number decide, then the earliest alert, then the lowest class id", () => {
    const low = alert({ timeUs: 2 * second, priority: 3, classId: 1 });
    const high = alert({ timeUs: 4 * second, priority: 1, classId: 9 });
    const highLater = alert({ timeUs: 5 * second, priority: 1, classId: 2 });
    const matcher = new AlertMatcher([low, highLater, high], { toleranceUs: 0 });
    expect(matcher.match(6, 4, B, 80, A, 1234, second, 6 * second)).toBe(high);
    const sameTime = [alert({ classId: 7 }), alert({ classId: 3 })];
    expect(new AlertMatcher(sameTime, { toleranceUs: 0 }).match(6, 4, A, 1234, B, 80, 0, 2e9)).toBe(sameTime[1]);
  });

  it("does not match another protocol, port or address, and lists those alerts as unmatched", () => {
    const udp = alert({ protocol: 17 });
    const otherPort = alert({ dstPort: 443 });
    const icmp = alert({ protocol: 1, srcPort: 8, dstPort: 0 });
    const matcher = new AlertMatcher([udp, otherPort, icmp], { toleranceUs: second });
    expect(matcher.match(6, 4, A, 1234, B, 80, 0, 2_000 * second)).toBeUndefined();
    expect(matcher.unmatched()).toEqual([udp, otherPort, icmp]);
  });

  it("matches IPv6 alerts", () => {
    const other = new Uint8Array(16).fill(0x30);
    const v6 = alert({ addressLength: 16, src: V6, dst: other, protocol: 17, srcPort: 53, dstPort: 5353 });
    const matcher = new AlertMatcher([v6], { toleranceUs: 0 });
    expect(matcher.match(17, 16, other, 5353, V6, 53, 0, 2_000 * second)).toBe(v6);
    expect(matcher.unmatched()).toEqual([]);
  });
});
