// Time intervals of alerted IPv4 sessions by protocol and unordered endpoint pair, in typed arrays: the split
// looks up every TCP/UDP packet of a port pair that alerted, and string keys cost an allocation per packet.

const EMPTY = 0xffffffff;

export class Ipv4Intervals {
  /** Per slot: lower address, higher address, lower port << 16 | higher port, protocol (EMPTY when unused). */
  private keys = new Uint32Array(4 * 4096).fill(EMPTY);
  /** Per slot: index of its latest interval, whose `next` leads to the earlier ones (-1 ends). */
  private heads = new Int32Array(4096);
  private slots = 0;
  private starts = new Float64Array(4096);
  private ends = new Float64Array(4096);
  private next = new Int32Array(4096);
  private intervals = 0;
  /** Normalized key of the last find(). */
  private lowAddress = 0;
  private highAddress = 0;
  private ports = 0;

  /** Adds [startUs, endUs] to the session of `a`:`aPort` ↔ `b`:`bPort` (4-byte addresses at offset 0). */
  add(protocol: number, a: Uint8Array, aPort: number, b: Uint8Array, bPort: number, startUs: number, endUs: number) {
    let slot = this.find(protocol, a, aPort, b, bPort);
    if (this.keys[4 * slot + 3] === EMPTY) {
      if (2 * (this.slots + 1) > this.heads.length) {
        this.grow();
        slot = this.find(protocol, a, aPort, b, bPort);
      }
      this.keys[4 * slot] = this.lowAddress;
      this.keys[4 * slot + 1] = this.highAddress;
      this.keys[4 * slot + 2] = this.ports;
      this.keys[4 * slot + 3] = protocol;
      this.heads[slot] = -1;
      this.slots++;
    }
    if (this.intervals === this.starts.length) this.growIntervals();
    const i = this.intervals++;
    this.starts[i] = startUs;
    this.ends[i] = endUs;
    this.next[i] = this.heads[slot];
    this.heads[slot] = i;
  }

  /** True when the session of the two endpoints has an interval holding `tsUs`. */
  contains(protocol: number, a: Uint8Array, aPort: number, b: Uint8Array, bPort: number, tsUs: number): boolean {
    const slot = this.find(protocol, a, aPort, b, bPort);
    if (this.keys[4 * slot + 3] === EMPTY) return false;
    for (let i = this.heads[slot]; i >= 0; i = this.next[i]) {
      if (tsUs >= this.starts[i] && tsUs <= this.ends[i]) return true;
    }
    return false;
  }

  /** The slot of the session, or the empty one where it would go (linear probing). */
  private find(protocol: number, a: Uint8Array, aPort: number, b: Uint8Array, bPort: number): number {
    const x = ((a[0] << 24) | (a[1] << 16) | (a[2] << 8) | a[3]) >>> 0;
    const y = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
    // The lower endpoint (by address, then port) first, as endpointPairKey orders them.
    const aFirst = x < y || (x === y && aPort <= bPort);
    this.lowAddress = aFirst ? x : y;
    this.highAddress = aFirst ? y : x;
    this.ports = (((aFirst ? aPort : bPort) << 16) | (aFirst ? bPort : aPort)) >>> 0;
    return this.probe(this.lowAddress, this.highAddress, this.ports, protocol);
  }

  private probe(low: number, high: number, ports: number, protocol: number): number {
    const mask = this.heads.length - 1;
    let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    h = Math.imul(h ^ ports ^ (protocol << 7), 0xc2b2ae35);
    let slot = (h >>> 8) & mask;
    const k = this.keys;
    for (;;) {
      const at = 4 * slot;
      if (k[at + 3] === EMPTY) return slot;
      if (k[at] === low && k[at + 1] === high && k[at + 2] === ports && k[at + 3] === protocol) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const keys = this.keys;
    const heads = this.heads;
    this.keys = new Uint32Array(keys.length * 2).fill(EMPTY);
    this.heads = new Int32Array(heads.length * 2);
    for (let slot = 0; slot < heads.length; slot++) {
      const at = 4 * slot;
      if (keys[at + 3] === EMPTY) continue;
      const to = this.probe(keys[at], keys[at + 1], keys[at + 2], keys[at + 3]);
      this.keys.set(keys.subarray(at, at + 4), 4 * to);
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
