// Binary labels by 5-tuple: the conversations seen in an attack capture, looked up in either direction.
import { endpointPairKey } from "./endpoint-key.js";

export class AttackTupleSet {
  private readonly keys = new Set<string>();

  /** Records one packet's conversation from the attack capture. */
  add(
    protocol: number,
    addressLength: number,
    src: Uint8Array,
    srcPort: number,
    dst: Uint8Array,
    dstPort: number,
  ): void {
    this.keys.add(endpointPairKey(protocol, addressLength, src, srcPort, dst, dstPort));
  }

  /** The conversation's key when the session's 5-tuple, in either direction, occurs in the attack capture. */
  find(
    protocol: number,
    addressLength: number,
    a: Uint8Array,
    aPort: number,
    b: Uint8Array,
    bPort: number,
  ): string | undefined {
    const key = endpointPairKey(protocol, addressLength, a, aPort, b, bPort);
    return this.keys.has(key) ? key : undefined;
  }

  get size(): number {
    return this.keys.size;
  }
}
