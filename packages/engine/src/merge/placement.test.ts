import { describe, expect, it } from "vitest";
import { parsePlacement, placeAttacks } from "./placement.js";
import type { CaptureScan } from "./scan.js";
import { fromNs } from "./timestamp.js";

/** Only the timestamps placement reads. */
function scan(firstNs: bigint | null, minNs = firstNs, maxNs = firstNs): CaptureScan {
  const ts = (ns: bigint | null) => (ns === null ? null : fromNs(ns));
  return { first: ts(firstNs), min: ts(minNs), max: ts(maxNs) } as CaptureScan;
}

const background = scan(1_000_000_000_000n, 1_000_000_000_000n, 1_000_000_003_001n);
const attacks = scan(5_000_000_000_123n, 5_000_000_000_100n, 5_000_000_009_000n);

describe("placeAttacks", () => {
  it("puts the first attack packet at the midpoint, floored to the step", () => {
    // Midpoint 1 000 000 001 500 (half a nanosecond dropped); a shift in whole microseconds lands at …001 123.
    const micro = placeAttacks(background, attacks, parsePlacement({}), 1000n);
    expect(micro.firstAttackPacketNs).toBe(1_000_000_001_123n);
    expect(micro.shiftNs % 1000n).toBe(0n);
    const nano = placeAttacks(background, attacks, parsePlacement({}), 1n);
    expect(nano.firstAttackPacketNs).toBe(1_000_000_001_500n);
  });

  it("places --at after the earliest packet, --at-time absolutely, --sequential one step after the latest", () => {
    expect(placeAttacks(background, attacks, parsePlacement({ at: "0.000001" }), 1n).firstAttackPacketNs).toBe(
      1_000_000_001_000n,
    );
    expect(placeAttacks(background, attacks, parsePlacement({ at: "-1" }), 1n).firstAttackPacketNs).toBe(
      -1_000_000_000n + 1_000_000_000_000n,
    );
    const atTime = placeAttacks(background, attacks, parsePlacement({ atTime: "1970-01-01T00:16:40.000000007Z" }), 1n);
    expect(atTime.firstAttackPacketNs).toBe(1_000_000_000_007n);
    expect(placeAttacks(background, attacks, parsePlacement({ sequential: true }), 1n).firstAttackPacketNs).toBe(
      1_000_000_003_002n,
    );
  });

  it("keeps the attacks' own times without background packets, and shifts nothing without attack packets", () => {
    expect(placeAttacks(scan(null), attacks, parsePlacement({}), 1n).shiftNs).toBe(0n);
    expect(placeAttacks(background, scan(null), parsePlacement({}), 1n)).toEqual({
      mode: "midpoint",
      shiftNs: 0n,
      firstAttackPacketNs: null,
    });
  });

  it("refuses two placements at once", () => {
    expect(() => parsePlacement({ at: "1", atTime: "2023-11-14T22:13:20Z" })).toThrow(/choose one of/);
  });
});
