// FlowIdTable: numeric ids beyond 32 bits and ids kept as text, through growth, as a Map would hold them.
import { expect, it } from "vitest";
import type { FlowKey } from "./eve-files.js";
import { FlowIdTable } from "./flow-id-table.js";

it("holds what a Map holds, through growth, with colliding low bits", () => {
  const table = new FlowIdTable();
  const map = new Map<FlowKey, number>();
  for (let i = 0; i < 20_000; i++) {
    // Same low 32 bits, different high bits; then Suricata-sized ids; then text ids.
    const id: FlowKey =
      i % 3 === 0 ? (i + 1) * 2 ** 32 + 7 : i % 3 === 1 ? 2_180_915_766_249_854 - i * 977 : `9${i}`.repeat(3);
    table.set(id, i);
    map.set(id, i);
    if (i % 5 === 0) {
      table.set(id, -1);
      map.set(id, -1);
    }
  }
  expect(table.get(12345)).toBeUndefined();
  expect(table.get("nope")).toBeUndefined();
  const seen = new Map<FlowKey, number>();
  table.forEach((id, value) => {
    seen.set(id, value);
  });
  expect(seen.size).toBe(map.size);
  for (const [id, value] of map) {
    expect(table.get(id)).toBe(value);
    expect(seen.get(id)).toBe(value);
  }
});
