// Time intervals of alerted IPv4 sessions by protocol, VLAN stack and unordered endpoint pair, in typed arrays: the
// split looks up every TCP/UDP packet of a port pair that alerted, and string keys cost an allocation per packet.

const EMPTY = 0xffffffff;
/** In a slot's protocol word: the session has intervals besides the one kept in the slot. */
const MORE = 0x100;
/** Highest VLAN index a protocol word holds (bits 9–31, short of the all-ones EMPTY). */
export const MAX_VLAN_INDEX = (1 << 23) - 2;
/**
 * 32 bytes per slot: lower address, higher address, ports, protocol word (protocol, MORE, VLAN index: 4 × 32 bits),
 * then the first interval.
 */
const SLOT_BYTES = 32;

export class Ipv4Intervals {
  /** Slots as words (8 per slot) and as doubles (4 per slot: the first interval's start and end at 2 and 3). */
  private words = new Uint32Array(0);
  private doubles = new Float64Array(0);
  private slots = 0;
  /** Per slot with MORE: index of its latest further interval, whose `next` leads to earlier ones (-1 ends). */
  private heads = new Int32Array(0);
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private next = new Int32Array(1024);
  private intervals = 0;
  /** Normalized key of the last find(). */
  private lowAddress = 0;
  private highAddress = 0;
  private ports = 0;

  constructor() {
    this.allocate(4096);
  }

  /**
   * Adds [startUs, endUs] to the session of `a`:`aPort` ↔ `b`:`bPort` (4-byte addresses at offset 0) on the VLAN stack
   * numbered `vlan` (0 for none, at most MAX_VLAN_INDEX).
   */
  add(
    protocol: number,
    vlan: number,
    a: Uint8Array,
    aPort: number,
    b: Uint8Array,
    bPort: number,
    startUs: number,
    endUs: number,
  ) {
    const word = protocolWord(protocol, vlan);
    let slot = this.find(word, address(a, 0), aPort, address(b, 0), bPort);
    const w = 8 * slot;
    if (this.words[w + 3] === EMPTY) {
      // Up to three quarters full: slots are 32 bytes, so a fuller table spares megabytes of first touches (page
      // faults) for a probe or two more, mostly within one cache line.
      if (4 * (this.slots + 1) > 3 * this.heads.length) {
        this.grow();
        slot = this.probe(this.lowAddress, this.highAddress, this.ports, word);
      }
      const words = this.words;
      const at = 8 * slot;
      words[at] = this.lowAddress;
      words[at + 1] = this.highAddress;
      words[at + 2] = this.ports;
      words[at + 3] = word;
      this.doubles[4 * slot + 2] = startUs;
      this.doubles[4 * slot + 3] = endUs;
      this.slots++;
      return;
    }
    if (this.intervals === this.starts.length) this.growIntervals();
    const i = this.intervals++;
    this.starts[i] = startUs;
    this.ends[i] = endUs;
    // Read whatever the flag says (a load met first after optimizing would stop the optimized caller).
    const head = this.heads[slot];
    this.next[i] = (this.words[w + 3] & MORE) !== 0 ? head : -1;
    this.heads[slot] = i;
    this.words[w + 3] |= MORE;
  }

  /** True when the session of the two endpoints has an interval holding `tsUs`. */
  contains(
    protocol: number,
    vlan: number,
    a: Uint8Array,
    aPort: number,
    b: Uint8Array,
    bPort: number,
    tsUs: number,
  ): boolean {
    return this.containsAt(protocol, vlan, a, 0, aPort, b, 0, bPort, tsUs);
  }

  /** As contains, for addresses read at `aAt` in `a` and `bAt` in `b` (a packet's own bytes). */
  containsAt(
    protocol: number,
    vlan: number,
    a: Uint8Array,
    aAt: number,
    aPort: number,
    b: Uint8Array,
    bAt: number,
    bPort: number,
    tsUs: number,
  ): boolean {
    const slot = this.find(protocolWord(protocol, vlan), address(a, aAt), aPort, address(b, bAt), bPort);
    const flags = this.words[8 * slot + 3];
    if (flags === EMPTY) return false;
    if (tsUs >= this.doubles[4 * slot + 2] && tsUs <= this.doubles[4 * slot + 3]) return true;
    if ((flags & MORE) === 0) return false;
    for (let i = this.heads[slot]; i >= 0; i = this.next[i]) {
      if (tsUs >= this.starts[i] && tsUs <= this.ends[i]) return true;
    }
    return false;
  }

  /** The slot of the session, or the empty one where it would go (linear probing). */
  private find(word: number, x: number, aPort: number, y: number, bPort: number): number {
    // The lower endpoint (by address, then port) first, as endpointPairKey orders them.
    const aFirst = x < y || (x === y && aPort <= bPort);
    this.lowAddress = aFirst ? x : y;
    this.highAddress = aFirst ? y : x;
    this.ports = (((aFirst ? aPort : bPort) << 16) | (aFirst ? bPort : aPort)) >>> 0;
    return this.probe(this.lowAddress, this.highAddress, this.ports, word);
  }

  /** `word`: the protocol word without MORE. */
  private probe(low: number, high: number, ports: number, word: number): number {
    const mask = this.heads.length - 1;
    let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    h = Math.imul(h ^ ports ^ Math.imul(word, 0x27d4eb2f), 0xc2b2ae35);
    let slot = (h >>> 8) & mask;
    const k = this.words;
    for (;;) {
      const at = 8 * slot;
      const flags = k[at + 3];
      if (flags === EMPTY) return slot;
      if (k[at] === low && k[at + 1] === high && k[at + 2] === ports && ((flags ^ word) & ~MORE) === 0) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private allocate(slots: number): void {
    const buffer = new ArrayBuffer(slots * SLOT_BYTES);
    this.words = new Uint32Array(buffer);
    this.doubles = new Float64Array(buffer);
    for (let at = 3; at < this.words.length; at += 8) this.words[at] = EMPTY;
    this.heads = new Int32Array(slots);
  }

  private grow(): void {
    const words = this.words;
    const doubles = this.doubles;
    const heads = this.heads;
    this.allocate(heads.length * 2);
    for (let slot = 0; slot < heads.length; slot++) {
      const at = 8 * slot;
      if (words[at + 3] === EMPTY) continue;
      const to = this.probe(words[at], words[at + 1], words[at + 2], (words[at + 3] & ~MORE) >>> 0);
      const t = 8 * to;
      this.words[t] = words[at];
      this.words[t + 1] = words[at + 1];
      this.words[t + 2] = words[at + 2];
      this.words[t + 3] = words[at + 3];
      this.doubles[4 * to + 2] = doubles[4 * slot + 2];
      this.doubles[4 * to + 3] = doubles[4 * slot + 3];
      this.heads[to] = heads[slot];
    }
  }

  private growIntervals(): void {
    const grow = <T extends Float64Array | Int32Array>(old: T, made: T): T => {
      made.set(old);
      return made;
    };
    this.starts = grow(this.starts, new Float64Array(this.starts.length * 2));
    this.ends = grow(this.ends, new Float64Array(this.ends.length * 2));
    this.next = grow(this.next, new Int32Array(this.next.length * 2));
  }
}

/** A slot's protocol word without MORE: protocol in bits 0–7, VLAN index in bits 9–31. */
function protocolWord(protocol: number, vlan: number): number {
  return (protocol | (vlan << 9)) >>> 0;
}

/** The IPv4 address at b[at] as an unsigned 32-bit number. */
function address(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}
