// Flow id → number (a slot, a file offset), for the hundreds of thousands of flows a run may alert on: Suricata's ids are integers beyond
// 32 bits, which a Map would box one by one, so they sit in an open-addressing table of typed arrays instead.
import type { FlowKey } from "./eve-files.js";

const EMPTY = -1;

export class FlowIdTable {
  private keys = new Float64Array(4096).fill(EMPTY);
  private values = new Float64Array(4096);
  private count = 0;
  /** Ids too large for a double to hold exactly (kept as text). */
  private readonly texts = new Map<string, number>();

  get(id: FlowKey): number | undefined {
    if (typeof id === "string") return this.texts.get(id);
    const at = this.find(id);
    return this.keys[at] === EMPTY ? undefined : this.values[at];
  }

  set(id: FlowKey, value: number): void {
    if (typeof id === "string") {
      this.texts.set(id, value);
      return;
    }
    let at = this.find(id);
    if (this.keys[at] === EMPTY) {
      if (2 * (this.count + 1) > this.keys.length) {
        this.grow();
        at = this.find(id);
      }
      this.keys[at] = id;
      this.count++;
    }
    this.values[at] = value;
  }

  forEach(fn: (id: FlowKey, value: number) => void): void {
    for (let at = 0; at < this.keys.length; at++) if (this.keys[at] !== EMPTY) fn(this.keys[at], this.values[at]);
    for (const [id, value] of this.texts) fn(id, value);
  }

  /** The slot holding `id`, or the empty one where it would go (linear probing). */
  private find(id: number): number {
    const mask = this.keys.length - 1;
    const high = Math.floor(id / 4294967296) | 0;
    let at = (Math.imul((id >>> 0) ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
    while (this.keys[at] !== EMPTY && this.keys[at] !== id) at = (at + 1) & mask;
    return at;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.values = new Float64Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === EMPTY) continue;
      const at = this.find(keys[i]);
      this.keys[at] = keys[i];
      this.values[at] = values[i];
    }
  }
}
