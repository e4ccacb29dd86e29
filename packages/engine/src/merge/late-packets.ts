// Out-of-order inputs: the first pass copies aside every "late" packet (earlier than a packet before it in the
// file); the merge then reads the input's other packets, which are in order, and slots the late ones back in.
// Memory is bounded by the late packets' bytes, not by the input's size.
import type { CapturedPacket } from "@tracemill/core/capture";
import { TracemillError } from "@tracemill/core/errors";
import type { MergeSource } from "./merge-source.js";
import { compareTimestamps } from "./timestamp.js";

/** A copied packet with its own bytes and comments. */
export interface HeldPacket extends CapturedPacket {
  comments: string[];
}

/** Collects late packets during the first pass, within a memory bound. */
export class LatePackets {
  readonly packets: HeldPacket[] = [];
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly file: string,
  ) {}

  hold(packet: CapturedPacket, comments: string[]): void {
    this.bytes += packet.capturedLength + 64;
    if (this.bytes > this.maxBytes) {
      throw new TracemillError(
        "BAD_INPUT",
        `${this.file} is too far out of timestamp order to merge in bounded memory: its late packets exceed ${this.maxBytes} bytes (sort it first, e.g. with reordercap)`,
        { file: this.file, offset: packet.fileOffset },
      );
    }
    this.packets.push({
      tsSec: packet.tsSec,
      tsNsec: packet.tsNsec,
      capturedLength: packet.capturedLength,
      originalLength: packet.originalLength,
      linkType: packet.linkType,
      interfaceIndex: packet.interfaceIndex,
      data: packet.data.slice(),
      fileOffset: packet.fileOffset,
      index: packet.index,
      comments,
    });
  }

  /** The late packets in timestamp order (file order on ties), ready for `InOrderSource`. */
  sorted(): HeldPacket[] {
    return this.packets.sort((a, b) => compareTimestamps(a.tsSec, a.tsNsec, b.tsSec, b.tsNsec) || a.index - b.index);
  }
}

/**
 * An input in timestamp order: its in-order packets straight from the reader (no copy), merged with its late
 * packets held from the first pass. Equal timestamps keep the file's order.
 */
export class InOrderSource implements MergeSource {
  private head: CapturedPacket | null = null;
  private nextLate = 0;
  private lateIndex = 0;
  private innerEnded = false;
  private lastComments: string[] | null = null;

  constructor(
    private readonly inner: MergeSource,
    private readonly late: HeldPacket[],
    /** Indices of the late packets in file order, to skip when the reader delivers them again. */
    private readonly lateIndices: number[],
  ) {}

  next(): CapturedPacket | null {
    if (!this.head && !this.innerEnded) {
      let packet = this.inner.next();
      while (packet && packet.index === this.lateIndices[this.lateIndex]) {
        this.lateIndex++;
        packet = this.inner.next();
      }
      // Without the reader's next packet a late packet cannot go yet: an in-order packet may come before it.
      if (!packet) return null;
      this.head = packet;
    }
    const late = this.late[this.nextLate];
    const head = this.head;
    if (
      late &&
      (!head || (compareTimestamps(late.tsSec, late.tsNsec, head.tsSec, head.tsNsec) || late.index - head.index) < 0)
    ) {
      this.nextLate++;
      this.lastComments = late.comments;
      return late;
    }
    this.head = null;
    this.lastComments = null;
    return head;
  }

  packetComments(): string[] {
    return this.lastComments ?? this.inner.packetComments();
  }

  async fill(): Promise<boolean> {
    if (this.innerEnded) return this.nextLate < this.late.length;
    if (!(await this.inner.fill())) this.innerEnded = true;
    return true;
  }
}
