import { isTracemillError } from "@tracemill/core";
import { describe, expect, it } from "vitest";
import { floorTo, formatIsoTime, formatSeconds, fromNs, parseIsoTime, parseSeconds, toNs } from "./timestamp.js";

describe("timestamps", () => {
  it("converts between nanoseconds and (sec, nsec), negatives included", () => {
    expect(fromNs(-1n)).toEqual({ sec: -1, nsec: 999_999_999 });
    expect(toNs({ sec: -1, nsec: 999_999_999 })).toBe(-1n);
    expect(fromNs(1_700_000_000_123_456_789n)).toEqual({ sec: 1_700_000_000, nsec: 123_456_789 });
  });

  it("floors towards minus infinity", () => {
    expect(floorTo(1_999n, 1000n)).toBe(1000n);
    expect(floorTo(-1n, 1000n)).toBe(-1000n);
  });

  it("parses seconds exactly", () => {
    expect(parseSeconds("12.5", "--at")).toBe(12_500_000_000n);
    expect(parseSeconds("-0.000000001", "--at")).toBe(-1n);
    expect(formatSeconds(-2_500_000_000n)).toBe("-2.500000000");
    for (const bad of ["1e3", "0.1234567891", "", "abc"]) {
      expect(() => parseSeconds(bad, "--at")).toThrow(/--at expects seconds/);
    }
  });

  it("parses ISO 8601 with a zone to the nanosecond and refuses times without one", () => {
    expect(parseIsoTime("2023-11-14T22:13:20.123456789Z", "--at-time")).toBe(1_700_000_000_123_456_789n);
    expect(parseIsoTime("2023-11-14T23:13:20+01:00", "--at-time")).toBe(1_700_000_000_000_000_000n);
    expect(parseIsoTime("2023-11-14 17:13:20.5-0500", "--at-time")).toBe(1_700_000_000_500_000_000n);
    expect(formatIsoTime(1_700_000_000_000_000_001n)).toBe("2023-11-14T22:13:20.000000001Z");
    for (const bad of ["2023-11-14T22:13:20", "2023-02-30T00:00:00Z", "2023-11-14T24:00:00Z", "yesterday"]) {
      let error: unknown;
      try {
        parseIsoTime(bad, "--at-time");
      } catch (caught) {
        error = caught;
      }
      expect(isTracemillError(error) && error.code, bad).toBe("BAD_OPTION");
    }
  });
});
