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
/** Sessions per chunk of added ones (128 KiB). */
const CHUNK = 4096;

export class Ipv4Intervals {
  /**
   * Sessions as added (32 bytes each, as a slot: key words, then start and end), in chunks that are never copied:
   * the table is built from them at the first lookup, at its final size. A table grown while flows come would
   * touch twice its size in fresh memory, and page faults are most of what building it costs.
   */
  private readonly addedWords: Uint32Array[] = [];
  private readonly addedDoubles: Float64Array[] = [];
  private count = 0;
  /** Sessions the table holds (a lookup after further adds builds it again). */
  private built = 0;
  /** Slots as words (8 per slot) and as doubles (4 per slot: the first interval's start and end at 2 and 3). */
  private words = new Uint32Array(0);
  private doubles = new Float64Array(0);
  private capacity = 0;
  /** Per slot with MORE: index of its latest further interval, whose `next` leads to earlier ones (-1 ends). */
  private heads = new Int32Array(0);
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private next = new Int32Array(1024);
  private intervals = 0;
  /** Normalized key of the last normalize(). */
  private lowAddress = 0;
  private highAddress = 0;
  private ports = 0;

  constructor() {
    this.allocate(1);
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
    this.normalize(address(a, 0), aPort, address(b, 0), bPort);
    const i = this.count % CHUNK;
    if (i === 0) {
      const chunk = new ArrayBuffer(CHUNK * SLOT_BYTES);
      this.addedWords.push(new Uint32Array(chunk));
      this.addedDoubles.push(new Float64Array(chunk));
    }
    const words = this.addedWords[this.addedWords.length - 1];
    const doubles = this.addedDoubles[this.addedDoubles.length - 1];
    words[8 * i] = this.lowAddress;
    words[8 * i + 1] = this.highAddress;
    words[8 * i + 2] = this.ports;
    words[8 * i + 3] = protocolWord(protocol, vlan);
    doubles[4 * i + 2] = startUs;
    doubles[4 * i + 3] = endUs;
    this.count++;
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
    if (this.built !== this.count) this.build();
    this.normalize(address(a, aAt), aPort, address(b, bAt), bPort);
    const slot = this.probe(this.lowAddress, this.highAddress, this.ports, protocolWord(protocol, vlan));
    const flags = this.words[8 * slot + 3];
    if (flags === EMPTY) return false;
    if (tsUs >= this.doubles[4 * slot + 2] && tsUs <= this.doubles[4 * slot + 3]) return true;
    if ((flags & MORE) === 0) return false;
    for (let i = this.heads[slot]; i >= 0; i = this.next[i]) {
      if (tsUs >= this.starts[i] && tsUs <= this.ends[i]) return true;
    }
    return false;
  }

  /** The lower endpoint (by address, then port) first, as endpointPairKey orders them. */
  private normalize(x: number, aPort: number, y: number, bPort: number): void {
    const aFirst = x < y || (x === y && aPort <= bPort);
    this.lowAddress = aFirst ? x : y;
    this.highAddress = aFirst ? y : x;
    this.ports = (((aFirst ? aPort : bPort) << 16) | (aFirst ? bPort : aPort)) >>> 0;
  }

  /** The slot of the session, or the empty one where it would go (linear probing). `word`: without MORE. */
  private probe(low: number, high: number, ports: number, word: number): number {
    const capacity = this.capacity;
    let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    h = Math.imul(h ^ ports ^ Math.imul(word, 0x27d4eb2f), 0xc2b2ae35);
    // The hash's top 21 bits scaled to the table (any size, not only powers of two): exact in a double.
    let slot = Math.floor(((h >>> 11) * capacity) / 2097152);
    const k = this.words;
    for (;;) {
      const at = 8 * slot;
      const flags = k[at + 3];
      if (flags === EMPTY) return slot;
      if (k[at] === low && k[at + 1] === high && k[at + 2] === ports && ((flags ^ word) & ~MORE) === 0) return slot;
      slot = slot + 1 === capacity ? 0 : slot + 1;
    }
  }

  /** The table of every session added so far, up to three quarters full. */
  private build(): void {
    this.allocate(Math.ceil((this.count * 4) / 3) + 1);
    this.intervals = 0;
    for (let n = 0; n < this.count; n++) {
      const words = this.addedWords[Math.floor(n / CHUNK)];
      const doubles = this.addedDoubles[Math.floor(n / CHUNK)];
      const i = n % CHUNK;
      this.insert(
        words[8 * i],
        words[8 * i + 1],
        words[8 * i + 2],
        words[8 * i + 3],
        doubles[4 * i + 2],
        doubles[4 * i + 3],
      );
    }
    this.built = this.count;
  }

  private insert(low: number, high: number, ports: number, word: number, startUs: number, endUs: number): void {
    const slot = this.probe(low, high, ports, word);
    const w = 8 * slot;
    const words = this.words;
    if (words[w + 3] === EMPTY) {
      words[w] = low;
      words[w + 1] = high;
      words[w + 2] = ports;
      words[w + 3] = word;
      this.doubles[4 * slot + 2] = startUs;
      this.doubles[4 * slot + 3] = endUs;
      return;
    }
    if (this.intervals === this.starts.length) this.growIntervals();
    const i = this.intervals++;
    this.starts[i] = startUs;
    this.ends[i] = endUs;
    this.next[i] = (words[w + 3] & MORE) !== 0 ? this.heads[slot] : -1;
    this.heads[slot] = i;
    words[w + 3] |= MORE;
  }

  private allocate(slots: number): void {
    const buffer = new ArrayBuffer(slots * SLOT_BYTES);
    this.words = new Uint32Array(buffer);
    this.doubles = new Float64Array(buffer);
    for (let at = 3; at < this.words.length; at += 8) this.words[at] = EMPTY;
    this.heads = new Int32Array(slots);
    this.capacity = slots;
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
