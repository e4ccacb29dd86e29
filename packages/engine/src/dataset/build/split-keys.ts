// What the splits need of each row, gathered as the sessions end: class, start time, the two endpoints (interned to
// small integers) and the label's campaign, in growing typed arrays indexed by row.
import type { Session, SplitKeys } from "@tracemill/core";
import { SessionEndpoints } from "../../labels/index.js";

export class SplitKeysBuilder {
  private count = 0;
  private classId = new Uint32Array(1 << 16);
  private startUs = new Float64Array(1 << 16);
  private hostA = new Uint32Array(1 << 16);
  private hostB = new Uint32Array(1 << 16);
  private group = new Int32Array(1 << 16);
  private readonly ipv4 = new Map<number, number>();
  private readonly ipv6 = new Map<string, number>();
  private hosts = 0;
  private readonly endpoints = new SessionEndpoints();

  add(row: number, session: Session, classId: number, group: number): void {
    if (row >= this.classId.length) this.grow(row + 1);
    this.classId[row] = classId;
    this.startUs[row] = session.baseSec * 1e6 + session.firstTime / 1000;
    const length = this.endpoints.load(session);
    this.hostA[row] = this.host(this.endpoints.a, length);
    this.hostB[row] = this.host(this.endpoints.b, length);
    this.group[row] = group;
    if (row >= this.count) this.count = row + 1;
  }

  keys(classNames: readonly string[]): SplitKeys {
    return {
      count: this.count,
      classId: this.classId.subarray(0, this.count),
      startUs: this.startUs.subarray(0, this.count),
      hostA: this.hostA.subarray(0, this.count),
      hostB: this.hostB.subarray(0, this.count),
      group: this.group.subarray(0, this.count),
      classNames,
    };
  }

  private host(address: Uint8Array, length: 4 | 16): number {
    if (length === 4) {
      const word = ((address[0] << 24) | (address[1] << 16) | (address[2] << 8) | address[3]) >>> 0;
      let id = this.ipv4.get(word);
      if (id === undefined) {
        id = this.hosts++;
        this.ipv4.set(word, id);
      }
      return id;
    }
    const key = String.fromCharCode(...address.subarray(0, 16));
    let id = this.ipv6.get(key);
    if (id === undefined) {
      id = this.hosts++;
      this.ipv6.set(key, id);
    }
    return id;
  }

  private grow(rows: number): void {
    const size = Math.max(rows, this.classId.length * 2);
    const grow = <T extends Uint32Array | Float64Array | Int32Array>(from: T, make: (n: number) => T): T => {
      const to = make(size);
      to.set(from);
      return to;
    };
    this.classId = grow(this.classId, (n) => new Uint32Array(n));
    this.startUs = grow(this.startUs, (n) => new Float64Array(n));
    this.hostA = grow(this.hostA, (n) => new Uint32Array(n));
    this.hostB = grow(this.hostB, (n) => new Uint32Array(n));
    this.group = grow(this.group, (n) => new Int32Array(n));
  }
}
