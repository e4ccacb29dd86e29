// A pcap record cut by the end of a read chunk, kept until the next chunk completes it (both passes over a plain
// pcap read fixed-size chunks, so a record may straddle two).
export class CutRecord {
  /** The record's bytes so far in [0, length); replaced by a larger array when a record outgrows it. */
  bytes = new Uint8Array(4096);
  length = 0;

  append(part: Uint8Array): void {
    if (this.length + part.length > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + part.length));
      bigger.set(this.bytes.subarray(0, this.length));
      this.bytes = bigger;
    }
    this.bytes.set(part, this.length);
    this.length += part.length;
  }
}
