// A run summary's timeline against the events' own times, computed apart: the check the sanitize and merge tests
// share.
import type { Timeline } from "@tracemill/core";
import { expect } from "vitest";

/**
 * A series of the timeline holds the events' counts: all of them, and up to each bin's end no fewer than the events
 * before it and no more than those before it plus a fifth of a bin (the one-pass histogram's own bins are at most
 * 1/512 of the span, a fifth of one of the 100 bins).
 */
export function expectTimeline(timeline: Timeline, name: string, times: readonly number[]): void {
  const counts = timeline.series[name];
  expect(
    counts.reduce((a, b) => a + b, 0),
    name,
  ).toBe(times.length);
  let cumulative = 0;
  for (let bin = 0; bin < counts.length; bin++) {
    cumulative += counts[bin];
    const end = timeline.start + (bin + 1) * timeline.binSeconds;
    const slack = timeline.binSeconds / 5;
    expect(cumulative, `${name} up to bin ${bin}`).toBeGreaterThanOrEqual(times.filter((t) => t < end - slack).length);
    expect(cumulative, `${name} up to bin ${bin}`).toBeLessThanOrEqual(times.filter((t) => t < end + slack).length);
  }
}
