// The flow table's index on its own: it grows at 70 % of its slots, and every record stays findable from its hash
// through insertions, backward-shift removals and growth, also with many equal home slots.
import { describe, expect, it } from "vitest";
import { SessionIndex } from "./session-index.js";

/** Whether probing from `hash` as the flow table does finds `record`. */
function find(index: SessionIndex, hash: number, record: number): boolean {
  const { table, mask } = index;
  for (let probe = hash & mask; table[2 * probe + 1] !== 0; probe = (probe + 1) & mask) {
    if (table[2 * probe] === hash && table[2 * probe + 1] === record + 1) return true;
  }
  return false;
}

describe("SessionIndex", () => {
  it("doubles once more than 70 % of its slots are in use", () => {
    const index = new SessionIndex();
    for (let record = 0; record < 11_468; record++) index.insert((record * 2654435761) & 0x3fffffff, record);
    expect(index.mask + 1).toBe(16_384);
    index.insert(12345, 11_468);
    expect(index.mask + 1).toBe(32_768);
    expect(index.size).toBe(11_469);
  });

  it("finds every record through insertions, removals and growth, with clustered hashes", () => {
    const index = new SessionIndex();
    // A third of the hashes share 64 home slots (long runs to shift back on removal), the rest are spread.
    const hashOf = (record: number) =>
      record % 3 === 0 ? ((record % 64) * 16_384 + record * 17) & 0x3fffffff : (record * 2654435761) & 0x3fffffff;
    const live = new Set<number>();
    for (let record = 0; record < 30_000; record++) {
      index.insert(hashOf(record), record);
      live.add(record);
      // Every fifth insertion removes an earlier record.
      if (record % 5 === 4) {
        const gone = (record * 7919) % record;
        if (live.has(gone)) {
          index.remove(hashOf(gone), gone);
          live.delete(gone);
        }
      }
    }
    expect(index.size).toBe(live.size);
    expect(index.size / (index.mask + 1)).toBeLessThanOrEqual(0.7);
    for (let record = 0; record < 30_000; record++) expect(find(index, hashOf(record), record)).toBe(live.has(record));
  });
});
