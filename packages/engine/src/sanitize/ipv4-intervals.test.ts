// Ipv4Intervals against a plain list: either direction of a session, its own protocol and VLAN stack, inside its
// intervals only.
import { expect, it } from "vitest";
import { seededRandom } from "../../../core/src/testing/index.js";
import { Ipv4Intervals, MAX_VLAN_INDEX } from "./ipv4-intervals.js";

it("finds a packet in its session's intervals, either direction, also for sessions added after a lookup", () => {
  const table = new Ipv4Intervals();
  const flows: { p: number; v: number; a: number[]; ap: number; b: number[]; bp: number; s: number; e: number }[] = [];
  const random = seededRandom(7);
  const rand = (n: number) => Math.floor(random() * n);
  // Untagged, low VLAN indexes or the highest (all bits of the protocol word in use).
  const vlan = () => [0, 1, 2, MAX_VLAN_INDEX][rand(4)];
  // Flows added after lookups must be found as well (a verification pass adds sessions after the split read the
  // table): 5000, the probes, then 2000 more and the probes again.
  const addFlows = (count: number) => {
    for (let i = 0; i < count; i++) {
      // Few addresses and ports, so sessions repeat and equal addresses occur.
      const f = {
        p: rand(2) ? 6 : 17,
        v: 0,
        a: [10, 0, rand(3), rand(4)],
        ap: rand(50),
        b: [10, 0, rand(3), rand(4)],
        bp: rand(50),
        s: rand(1000) * 10,
        e: 0,
      };
      f.e = f.s + rand(30);
      f.v = vlan();
      flows.push(f);
      table.add(f.p, f.v, new Uint8Array(f.a), f.ap, new Uint8Array(f.b), f.bp, f.s, f.e);
    }
  };
  const same = (x: number[], y: number[]) => x.every((v, i) => v === y[i]);
  const probe = () => {
    let hits = 0;
    for (let i = 0; i < 3000; i++) {
      // Half the probes near a known flow, in a random direction; the others anywhere.
      const f = flows[rand(flows.length)];
      const near = rand(2) === 0;
      const swap = rand(2) === 0;
      const p = near ? f.p : rand(2) ? 6 : 17;
      const v = near && rand(4) > 0 ? f.v : vlan();
      const a = near ? (swap ? f.b : f.a) : [10, 0, rand(3), rand(4)];
      const ap = near ? (swap ? f.bp : f.ap) : rand(50);
      const b = near ? (swap ? f.a : f.b) : [10, 0, rand(3), rand(4)];
      const bp = near ? (swap ? f.ap : f.bp) : rand(50);
      const ts = near ? f.s + rand(40) - 5 : rand(10_030);
      const expected = flows.some(
        (f) =>
          f.p === p &&
          f.v === v &&
          ((same(f.a, a) && f.ap === ap && same(f.b, b) && f.bp === bp) ||
            (same(f.a, b) && f.ap === bp && same(f.b, a) && f.bp === ap)) &&
          ts >= f.s &&
          ts <= f.e,
      );
      if (expected) hits++;
      expect(table.contains(p, v, new Uint8Array(a), ap, new Uint8Array(b), bp, ts)).toBe(expected);
    }
    return hits;
  };
  expect(table.contains(6, 0, new Uint8Array([10, 0, 0, 1]), 1, new Uint8Array([10, 0, 0, 2]), 2, 5)).toBe(false);
  addFlows(5000);
  const first = probe();
  addFlows(2000);
  const second = probe();
  for (const hits of [first, second]) {
    expect(hits).toBeGreaterThan(300);
    expect(hits).toBeLessThan(2500);
  }
});
