// Puts a slightly out-of-order input back into timestamp order: packets wait in a min-heap until no later packet
// of the input can be earlier, which the first pass's measured lateness tells exactly. Memory is bounded.
import { type CapturedPacket, TracemillError } from "@tracemill/core";
import type { MergeSource } from "./merge-source.js";
import { compareTimestamps } from "./timestamp.js";

const NS = 1_000_000_000;

/** A held packet: a copy of the record with its own bytes, and its comments. */
interface Held extends CapturedPacket {
  comments: string[];
}

export interface ReorderOptions {
  /** The input's largest lateness (how far a packet's timestamp lies before an earlier packet's), in ns. */
  latenessNs: number;
  /** Bytes of packets that may wait at once; more means the input is too disordered to merge in bounded memory. */
  maxBufferedBytes: number;
  /** The input's name, for the error. */
  file: string;
}

export class ReorderingSource implements MergeSource {
  private readonly heap: Held[] = [];
  private bufferedBytes = 0;
  private maxSec = Number.NEGATIVE_INFINITY;
  private maxNsec = 0;
  /** Packets at or before this time can go: no later packet of the input is earlier. */
  private releaseSec = Number.NEGATIVE_INFINITY;
  private releaseNsec = 0;
  private innerEnded = false;
  private lastComments: string[] = [];
  private readonly latenessSec: number;
  private readonly latenessNsec: number;

  constructor(
    private readonly inner: MergeSource,
    private readonly options: ReorderOptions,
  ) {
    this.latenessSec = Math.floor(options.latenessNs / NS);
    this.latenessNsec = options.latenessNs % NS;
  }

  next(): CapturedPacket | null {
    for (;;) {
      const top = this.heap[0];
      if (
        top &&
        (this.innerEnded || compareTimestamps(top.tsSec, top.tsNsec, this.releaseSec, this.releaseNsec) <= 0)
      ) {
        const held = this.pop();
        this.lastComments = held.comments;
        return held;
      }
      if (this.innerEnded) return null;
      const packet = this.inner.next();
      if (!packet) return null;
      this.hold(packet);
    }
  }

  packetComments(): string[] {
    return this.lastComments;
  }

  async fill(): Promise<boolean> {
    if (this.innerEnded) return this.heap.length > 0;
    if (!(await this.inner.fill())) this.innerEnded = true;
    return true;
  }

  private hold(packet: CapturedPacket): void {
    this.bufferedBytes += packet.data.length;
    if (this.bufferedBytes > this.options.maxBufferedBytes) {
      throw new TracemillError(
        "BAD_INPUT",
        `${this.options.file} is too far out of timestamp order to merge in bounded memory: more than ${this.options.maxBufferedBytes} bytes of packets would wait (sort it first, e.g. with reordercap)`,
        { file: this.options.file, offset: packet.fileOffset },
      );
    }
    if (compareTimestamps(packet.tsSec, packet.tsNsec, this.maxSec, this.maxNsec) > 0) {
      this.maxSec = packet.tsSec;
      this.maxNsec = packet.tsNsec;
      this.releaseSec = this.maxSec - this.latenessSec;
      this.releaseNsec = this.maxNsec - this.latenessNsec;
      if (this.releaseNsec < 0) {
        this.releaseNsec += NS;
        this.releaseSec -= 1;
      }
    }
    const held: Held = {
      tsSec: packet.tsSec,
      tsNsec: packet.tsNsec,
      capturedLength: packet.capturedLength,
      originalLength: packet.originalLength,
      linkType: packet.linkType,
      interfaceIndex: packet.interfaceIndex,
      data: packet.data.slice(),
      fileOffset: packet.fileOffset,
      index: packet.index,
      comments: this.inner.packetComments(),
    };
    const heap = this.heap;
    heap.push(held);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private pop(): Held {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left], heap[smallest])) smallest = left;
        if (right < heap.length && before(heap[right], heap[smallest])) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
        i = smallest;
      }
    }
    this.bufferedBytes -= top.data.length;
    return top;
  }
}

/** Timestamp order; equal timestamps keep the file's order. */
function before(a: Held, b: Held): boolean {
  const order = compareTimestamps(a.tsSec, a.tsNsec, b.tsSec, b.tsNsec);
  return order < 0 || (order === 0 && a.index < b.index);
}
