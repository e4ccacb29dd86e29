// The first pass's per-packet bookkeeping: first, earliest and latest timestamps, lateness, link types, and the
// late packets set aside. Shared by the reader-based scan and the raw pcap record scan.
import type { CapturedPacket } from "@tracemill/core/capture";
import { TimeHistogram } from "@tracemill/core/timeline";
import type { LatePackets } from "./late-packets.js";
import { compareTimestamps } from "./timestamp.js";

/** What TimeStats needs of the packet's source: its comments (pcapng). */
export interface CommentSource {
  packetComments(): string[];
}

/**
 * The per-packet bookkeeping, kept in an object: its number fields are updated in place, whereas an async
 * function's locals live in a heap context where every new timestamp beyond 2^30 would be a fresh allocation.
 */
export class TimeStats {
  packets = 0;
  firstSec = 0;
  firstNsec = 0;
  minSec = Number.POSITIVE_INFINITY;
  minNsec = 0;
  maxSec = Number.NEGATIVE_INFINITY;
  maxNsec = 0;
  outOfOrderPackets = 0;
  maxLatenessNs = 0;
  microsecondExact = true;
  readonly linkTypes = new Set<number>();
  readonly lateIndices: number[] = [];
  /** Packets over time, for the summary's timeline. */
  readonly times = new TimeHistogram();
  private lastLinkType = -1;

  constructor(private readonly late: LatePackets) {}

  add(packet: CapturedPacket, source: CommentSource): void {
    const tsSec = packet.tsSec;
    const tsNsec = packet.tsNsec;
    this.times.add(tsSec, tsNsec);
    if (this.packets++ === 0) {
      this.firstSec = tsSec;
      this.firstNsec = tsNsec;
    }
    if (tsNsec % 1000 !== 0) this.microsecondExact = false;
    if (packet.linkType !== this.lastLinkType) {
      this.lastLinkType = packet.linkType;
      this.linkTypes.add(packet.linkType);
    }
    if (compareTimestamps(tsSec, tsNsec, this.maxSec, this.maxNsec) >= 0) {
      this.maxSec = tsSec;
      this.maxNsec = tsNsec;
    } else {
      this.outOfOrderPackets++;
      const lateness = (this.maxSec - tsSec) * 1e9 + (this.maxNsec - tsNsec);
      if (lateness > this.maxLatenessNs) this.maxLatenessNs = lateness;
      this.late.hold(packet, source.packetComments());
      this.lateIndices.push(packet.index);
    }
    if (compareTimestamps(tsSec, tsNsec, this.minSec, this.minNsec) < 0) {
      this.minSec = tsSec;
      this.minNsec = tsNsec;
    }
  }
}
