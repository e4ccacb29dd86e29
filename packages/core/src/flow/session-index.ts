// The flow table's index: session records by a symmetric hash of their endpoints, open addressing with linear
// probing and backward-shift deletion, in one Int32Array.

/** 128 KiB to start with. */
const INITIAL_SLOTS = 16_384;
/**
 * The share of slots in use beyond which the table doubles. Linear probing stays short below it (a lookup that finds
 * nothing reads about six slots at 0.7, in one or two cache lines of eight), and it decides the size: at 0.5 the same
 * live sessions often take twice the slots, with the old table alive during the copy of each doubling.
 */
const MAX_LOAD = 0.7;

/**
 * Per slot the session's hash and its record's store slot + 1 (0: empty), side by side so that a probe reads one
 * cache line, and no array of object pointers for the garbage collector to trace. The flow table probes `table`
 * itself (the hot path); this class inserts, removes and grows.
 */
export class SessionIndex {
  table = new Int32Array(2 * INITIAL_SLOTS);
  mask = INITIAL_SLOTS - 1;
  private live = 0;
  private limit = Math.floor(MAX_LOAD * INITIAL_SLOTS);

  /** Records in the index. */
  get size(): number {
    return this.live;
  }

  insert(hash: number, record: number): void {
    if (++this.live > this.limit) this.grow();
    place(this.table, this.mask, hash, record + 1);
  }

  /** Reads the home slot of `hash` (its value means nothing): loads that line ahead of a lookup or removal. */
  peek(hash: number): number {
    return this.table[2 * (hash & this.mask) + 1];
  }

  /** Removes with backward-shift deletion, so lookups never need tombstones. */
  remove(hash: number, record: number): void {
    const table = this.table;
    const mask = this.mask;
    const entry = record + 1;
    let hole = hash & mask;
    while (table[2 * hole + 1] !== entry) hole = (hole + 1) & mask;
    let next = (hole + 1) & mask;
    while (table[2 * next + 1] !== 0) {
      const home = table[2 * next] & mask;
      // The entry may fill the hole when the hole is no farther from the entry's home slot than the entry is.
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        table[2 * hole] = table[2 * next];
        table[2 * hole + 1] = table[2 * next + 1];
        hole = next;
      }
      next = (next + 1) & mask;
    }
    table[2 * hole] = 0;
    table[2 * hole + 1] = 0;
    this.live--;
  }

  private grow(): void {
    const old = this.table;
    const table = new Int32Array(2 * old.length);
    const mask = old.length - 1;
    for (let slot = 0; slot < old.length; slot += 2) {
      if (old[slot + 1] !== 0) place(table, mask, old[slot], old[slot + 1]);
    }
    this.table = table;
    this.mask = mask;
    this.limit = Math.floor(MAX_LOAD * (mask + 1));
  }
}

function place(table: Int32Array, mask: number, hash: number, entry: number): void {
  let slot = hash & mask;
  while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
  table[2 * slot] = hash;
  table[2 * slot + 1] = entry;
}

/**
 * Hashes keep 30 bits: V8's small integers, which a call that is not inlined passes as they are, where a wider
 * int32 would be boxed as a heap number (one allocation per packet).
 */
const SMI_BITS = 0x3fffffff;

/**
 * The same value for both directions of a connection: `a` and `b` are its two endpoints each mixed alone
 * (mixAddress), combined symmetrically, then mixed so that every input bit reaches the low bits the index masks.
 */
export function symmetricHash(a: number, b: number, protocol: number): number {
  let h = Math.imul((a + b) | 0, 0x9e3779b1) ^ (a ^ b) ^ protocol;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & SMI_BITS;
}

/**
 * One step of mixing an endpoint: `word` (an IPv4 address, or the mix so far) multiplied, rotated, `next` (a port,
 * or an IPv6 address's next word) added in, multiplied again. An IPv4 endpoint takes one step (two
 * multiplications; each address word took five before); symmetricHash's final mix spreads it over every bit.
 */
export function mixAddress(word: number, next: number): number {
  const h = Math.imul(word, 0xcc9e2d51);
  return Math.imul(((h << 15) | (h >>> 17)) ^ next, 0x1b873593);
}
