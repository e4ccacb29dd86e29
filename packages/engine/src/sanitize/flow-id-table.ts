// Flow id → number (a slot, a file offset), for the hundreds of thousands of flows a run may alert on: Suricata's ids are integers beyond
// 32 bits, which a Map would box one by one, so they sit in an open-addressing table of typed arrays instead.
import type { FlowKey } from "./eve-files.js";

const EMPTY = -1;

export class FlowIdTable {
  /** Key and value side by side (2 × slot, 2 × slot + 1): a lookup in a table of megabytes touches one cache line. */
  private pairs = new Float64Array(2 * 4096).fill(EMPTY);
  private count = 0;
  /** Ids too large for a double to hold exactly (kept as text). */
  private readonly texts = new Map<string, number>();
  /** The id last looked up and its slot: a get is often followed by a set of the same id. */
  private lastId = EMPTY;
  private lastAt = 0;

  get(id: FlowKey): number | undefined {
    if (typeof id === "string") return this.texts.get(id);
    const at = this.find(id);
    // Both read whatever the answer: a load met first after optimizing (the first id found again) would stop the
    // optimized caller and compile it once more.
    const pairs = this.pairs;
    const key = pairs[2 * at];
    const value = pairs[2 * at + 1];
    return key === EMPTY ? undefined : value;
  }

  set(id: FlowKey, value: number): void {
    if (typeof id === "string") {
      this.texts.set(id, value);
      return;
    }
    let at = this.find(id);
    if (this.pairs[2 * at] === EMPTY) {
      // Up to three quarters full: a few more probes, mostly within a cache line, cost less than the page faults of
      // the megabytes a sparser table (and each growth's copy) touches first.
      if (8 * (this.count + 1) > 3 * this.pairs.length) {
        this.grow();
        at = this.find(id);
      }
      this.pairs[2 * at] = id;
      this.count++;
    }
    this.pairs[2 * at + 1] = value;
  }

  forEach(fn: (id: FlowKey, value: number) => void): void {
    const pairs = this.pairs;
    for (let at = 0; at < pairs.length; at += 2) if (pairs[at] !== EMPTY) fn(pairs[at], pairs[at + 1]);
    for (const [id, value] of this.texts) fn(id, value);
  }

  /** The slot holding `id`, or the empty one where it would go (linear probing). */
  private find(id: number): number {
    if (id === this.lastId) return this.lastAt;
    const pairs = this.pairs;
    const mask = (pairs.length >> 1) - 1;
    const high = Math.floor(id / 4294967296) | 0;
    let at = (Math.imul((id >>> 0) ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
    while (pairs[2 * at] !== EMPTY && pairs[2 * at] !== id) at = (at + 1) & mask;
    this.lastId = id;
    this.lastAt = at;
    return at;
  }

  private grow(): void {
    const old = this.pairs;
    this.pairs = new Float64Array(old.length * 2).fill(EMPTY);
    this.lastId = EMPTY;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] === EMPTY) continue;
      const at = this.find(old[i]);
      this.pairs[2 * at] = old[i];
      this.pairs[2 * at + 1] = old[i + 1];
    }
    this.lastId = EMPTY;
  }
}
