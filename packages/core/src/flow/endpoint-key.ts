// The endpoints of the packet the flow table is matching, as 32-bit address words, compared with and written into
// a session record's words (forward address in words 0–3, backward in 4–7; IPv4 uses words 0 and 4, the rest 0).
import { mixAddress, symmetricHash } from "./session-index.js";

/**
 * IPv4 (most packets) takes the short path everywhere: two words loaded, hashed and compared. The caller compares
 * the record's key word (protocol and IP version) first, so a record compared here has the packet's IP version and
 * an IPv4 record's other address words are known to be 0. IPv6's other words go through separate methods, which
 * keeps the IPv4 path's code small enough for V8 to inline into the flow table's per-packet function.
 */
export class EndpointKey {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;
  private d0 = 0;
  private d1 = 0;
  private d2 = 0;
  private d3 = 0;
  /** IPv6: words 1–3 of each address count too. */
  private wide = false;

  /**
   * Loads a packet's source and destination address (4 bytes each for IPv4, 16 for IPv6) and returns the
   * connection's hash (the same both ways), computed from the words as they are read rather than from the fields.
   */
  load(src: Uint8Array, dst: Uint8Array, v4: boolean, sport: number, dport: number, protocol: number): number {
    const s0 = (src[0] << 24) | (src[1] << 16) | (src[2] << 8) | src[3];
    const d0 = (dst[0] << 24) | (dst[1] << 16) | (dst[2] << 8) | dst[3];
    this.s0 = s0;
    this.d0 = d0;
    this.wide = !v4;
    if (!v4) return this.loadWide(src, dst, sport, dport, protocol);
    return symmetricHash(mixAddress(s0, sport), mixAddress(d0, dport), protocol);
  }

  private loadWide(src: Uint8Array, dst: Uint8Array, sport: number, dport: number, protocol: number): number {
    this.s1 = (src[4] << 24) | (src[5] << 16) | (src[6] << 8) | src[7];
    this.s2 = (src[8] << 24) | (src[9] << 16) | (src[10] << 8) | src[11];
    this.s3 = (src[12] << 24) | (src[13] << 16) | (src[14] << 8) | src[15];
    this.d1 = (dst[4] << 24) | (dst[5] << 16) | (dst[6] << 8) | dst[7];
    this.d2 = (dst[8] << 24) | (dst[9] << 16) | (dst[10] << 8) | dst[11];
    this.d3 = (dst[12] << 24) | (dst[13] << 16) | (dst[14] << 8) | dst[15];
    const a = mixAddress(mixAddress(mixAddress(this.s0, this.s1), this.s2), this.s3);
    const b = mixAddress(mixAddress(mixAddress(this.d0, this.d1), this.d2), this.d3);
    return symmetricHash(mixAddress(a, sport), mixAddress(b, dport), protocol);
  }

  /**
   * Whether the record at word `w`, of the packet's IP version, has the packet's source as its forward side (ports
   * compared by the caller).
   */
  isForward(words: Int32Array, w: number): boolean {
    return words[w] === this.s0 && words[w + 4] === this.d0 && (!this.wide || this.wideForward(words, w));
  }

  /** As isForward, with the packet's source as the record's backward side. */
  isBackward(words: Int32Array, w: number): boolean {
    return words[w] === this.d0 && words[w + 4] === this.s0 && (!this.wide || this.wideBackward(words, w));
  }

  private wideForward(words: Int32Array, w: number): boolean {
    return (
      words[w + 1] === this.s1 &&
      words[w + 5] === this.d1 &&
      words[w + 2] === this.s2 &&
      words[w + 6] === this.d2 &&
      words[w + 3] === this.s3 &&
      words[w + 7] === this.d3
    );
  }

  private wideBackward(words: Int32Array, w: number): boolean {
    return (
      words[w + 1] === this.d1 &&
      words[w + 5] === this.s1 &&
      words[w + 2] === this.d2 &&
      words[w + 6] === this.s2 &&
      words[w + 3] === this.d3 &&
      words[w + 7] === this.s3
    );
  }

  /** Writes the record's address words at `w`: the source forward, or the destination when `swap`. */
  write(words: Int32Array, w: number, swap: boolean): void {
    words[w] = swap ? this.d0 : this.s0;
    words[w + 4] = swap ? this.s0 : this.d0;
    const wide = this.wide;
    words[w + 1] = !wide ? 0 : swap ? this.d1 : this.s1;
    words[w + 2] = !wide ? 0 : swap ? this.d2 : this.s2;
    words[w + 3] = !wide ? 0 : swap ? this.d3 : this.s3;
    words[w + 5] = !wide ? 0 : swap ? this.s1 : this.d1;
    words[w + 6] = !wide ? 0 : swap ? this.s2 : this.d2;
    words[w + 7] = !wide ? 0 : swap ? this.s3 : this.d3;
  }
}
