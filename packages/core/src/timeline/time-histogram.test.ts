// The one-pass histogram against counts computed directly from the times, and common timelines worked by hand.
import { describe, expect, it } from "vitest";
import { SeededRandom } from "../dataset/seeded-random.js";
import { commonTimeline, HISTOGRAM_BINS, TimeHistogram } from "./time-histogram.js";

describe("TimeHistogram", () => {
  it("ends with the counts a direct binning at its final width gives, whatever the span", () => {
    const random = new SeededRandom(7);
    for (const span of [0.5, 3_600, 7 * 86_400, 3 * 365 * 86_400]) {
      const histogram = new TimeHistogram();
      const times: number[] = [];
      const first = 1_700_000_000;
      for (let i = 0; i < 5_000; i++) {
        const offset = i === 0 ? 0 : random.below(1_000_000) * (span / 1_000_000);
        times.push(offset);
        const whole = Math.floor(offset);
        histogram.add(first + whole, Math.round((offset - whole) * 1e9) % 1_000_000_000);
      }
      // The width is the first 1 ms doubled until the span fits the bins.
      let width = 0.001;
      while (Math.max(...times) >= HISTOGRAM_BINS * width) width *= 2;
      expect(histogram.width, `span ${span}`).toBeCloseTo(width, 12);
      const direct = new Array<number>(HISTOGRAM_BINS).fill(0);
      for (const t of times) direct[Math.floor((first + t - histogram.origin) / width)]++;
      expect([...histogram.counts], `span ${span}`).toEqual(direct);
      expect(histogram.total).toBe(5_000);
    }
  });

  it("counts a time earlier than the first in the first bin, and says how many", () => {
    const histogram = new TimeHistogram();
    histogram.add(100, 0);
    histogram.add(99, 500_000_000);
    histogram.add(100, 2_500_000);
    expect(histogram.early).toBe(1);
    expect(histogram.counts[0]).toBe(2);
    expect(histogram.counts[2]).toBe(1);
  });
});

describe("commonTimeline", () => {
  it("draws a background and a shifted attack capture on the same bins", () => {
    const background = new TimeHistogram();
    for (let s = 0; s < 10; s++) background.add(1000 + s, 0);
    const attacks = new TimeHistogram();
    for (let s = 0; s < 5; s++) attacks.add(5000 + s, 250_000_000);
    // Shifted by -3995 s: the attack packets at 1005.25 … 1009.25.
    const timeline = commonTimeline(
      [
        { name: "background", histogram: background },
        { name: "attacks", histogram: attacks, shift: -3995 },
      ],
      10,
    );
    expect(timeline?.start).toBe(1000);
    // The span ends past the last non-empty 16 ms bin of each (width 16 ms after coarsening for a 9.25 s span).
    expect(timeline?.binSeconds).toBeGreaterThan(0.9);
    expect(timeline?.binSeconds).toBeLessThan(1.01);
    expect(timeline?.series.background).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(timeline?.series.attacks).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
  });

  it("is null when nothing was counted", () => {
    expect(commonTimeline([{ name: "empty", histogram: new TimeHistogram() }])).toBeNull();
  });
});
