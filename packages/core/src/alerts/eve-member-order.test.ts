// MemberOrder must name members exactly as a scan to the closing quote would, whatever their order.
import { describe, expect, it } from "vitest";
import { MemberOrder } from "./eve-member-order.js";

const order = () =>
  new MemberOrder(
    [
      [1, "flow_id"],
      [2, "flow"],
      [3, "alert"],
    ],
    0,
  );
const bytes = (text: string) => new TextEncoder().encode(text);

function names(text: string): [number, string][] {
  const b = bytes(text);
  const m = order();
  const out: [number, string][] = [];
  for (let i = 1; b[i] === 34; ) {
    const id = m.read(b, i, b.length);
    if (id < 0) break;
    const next = text.indexOf(",", m.valueAt);
    out.push([id, text.slice(m.valueAt, next < 0 ? -1 : next)]);
    if (next < 0) break;
    i = next + 1;
  }
  return out;
}

describe("MemberOrder", () => {
  it("reads names in order, skipping absent ones, and out of order", () => {
    expect(names('{"flow_id":1,"alert":2,"flow":3,"x":4}')).toEqual([
      [1, "1"],
      [3, "2"],
      [2, "3"],
      [0, "4"],
    ]);
  });

  it("tells a name from a longer or escaped one", () => {
    expect(names('{"flow_idx":1,"fl\\u006fw":2,"flow":3}')).toEqual([
      [0, "1"],
      [0, "2"],
      [2, "3"],
    ]);
  });

  it("refuses a name without a colon or cut before its end", () => {
    const m = order();
    expect(m.read(bytes('"flow" 1'), 0, 8)).toBe(-1);
    expect(m.read(bytes('"flow":1'), 0, 5)).toBe(-1);
    expect(m.read(bytes('"flow":'), 0, 7)).toBe(2);
  });

  it("finds a member's value in an object and returns the index past it", () => {
    const text = '{"alert":{"a":[1,"}"]},"flow":"x"},';
    const m = order();
    expect(m.findIn(bytes(text), 0, text.length, 2)).toBe(text.length - 1);
    expect(text.slice(m.foundAt, m.foundAt + 3)).toBe('"x"');
    expect(m.findIn(bytes("{}"), 0, 2, 2)).toBe(2);
    expect(m.foundAt).toBe(-1);
    expect(m.findIn(bytes('{"flow":tru}'), 0, 12, 2)).toBe(-1);
  });
});
