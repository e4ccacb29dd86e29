// The worker's queue of merge keys against a plain array, across chunk boundaries and with large differences.
import { describe, expect, it } from "vitest";
import { StartQueue } from "./start-queue.js";

describe("StartQueue", () => {
  it("gives back what was added, in order, while adding and taking interleave over many chunks", () => {
    const queue = new StartQueue();
    const model: number[] = [];
    let value = 0;
    let next = 0;
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let step = 0; step < 400_000; step++) {
      // Adds lead for a while (the window grows to several chunks), then takes catch up and empty the queue.
      const adding = step < 300_000 ? random() < 0.7 : random() < 0.2;
      if (adding || model.length === next) {
        const r = random();
        value += r < 0.001 ? 2 ** 33 + Math.floor(r * 1e9) : r < 0.3 ? 0 : Math.floor(r * 1000);
        queue.push(value);
        model.push(value);
      } else {
        expect(queue.first).toBe(model[next]);
        queue.shift();
        next++;
      }
      expect(queue.length).toBe(model.length - next);
    }
    while (next < model.length) {
      expect(queue.first).toBe(model[next++]);
      queue.shift();
    }
    expect(queue.length).toBe(0);
    queue.push(value + 5);
    expect(queue.first).toBe(value + 5);
  });

  it("refuses a start before the previous one, and a take from an empty queue", () => {
    const queue = new StartQueue();
    queue.push(10);
    expect(() => queue.push(9)).toThrow(/before the previous one/);
    queue.shift();
    expect(() => queue.shift()).toThrow(/no start left/);
  });
});
