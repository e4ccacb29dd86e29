// The first pass over an input: what placing and merging it needs (first, earliest and latest timestamps, how
// far out of order it is, its interfaces) and its SHA-256, read as a stream without keeping packets.
import { createHash } from "node:crypto";
import type { CapturedPacket, CaptureInfo } from "@tracemill/core";
import { FileCursor } from "./file-cursor.js";
import { hashFile } from "./file-hash.js";
import { type HeldPacket, LatePackets } from "./late-packets.js";
import { type MergeSource, pull } from "./merge-source.js";
import { compareTimestamps, type Timestamp } from "./timestamp.js";

export interface CaptureScan {
  name: string;
  sha256: string;
  /** File size in bytes (compressed size for .gz). */
  bytes: number;
  info: CaptureInfo;
  packets: number;
  /** The first packet's timestamp in file order; null without packets. */
  first: Timestamp | null;
  /** Earliest and latest timestamps. */
  min: Timestamp | null;
  max: Timestamp | null;
  /** Packets earlier than a packet before them, and the largest such gap in nanoseconds. */
  outOfOrderPackets: number;
  maxLatenessNs: number;
  /** Every timestamp is a whole number of microseconds (so microsecond output loses nothing). */
  microsecondExact: boolean;
  linkTypes: number[];
  /** The late packets (copies) in timestamp order, and their indices in file order. */
  late: HeldPacket[];
  lateIndices: number[];
}

export async function scanCapture(
  file: string,
  name: string,
  maxLateBytes: number,
  signal?: AbortSignal,
  onProgress?: (bytesRead: number) => void,
): Promise<CaptureScan> {
  const late = new LatePackets(maxLateBytes, name);
  const stats = new TimeStats(late);
  const cursor = await FileCursor.open(file, name);
  const stopHashing = new AbortController();
  // A plain file is hashed from the chunks the pass reads (cheaper than a worker reading it again); a gzip
  // file's hash is of its compressed bytes, which the pass never sees, so a worker reads those.
  const hash = cursor.compressed ? null : createHash("sha256");
  if (hash) cursor.onChunk = (chunk) => hash.update(chunk);
  const sha256 = hash ? null : hashFile(file, stopHashing.signal);
  // Rejections are taken up once the pass ends; a damaged capture's error comes first.
  sha256?.catch(() => {});
  try {
    for (let packet = await pull(cursor); packet; packet = cursor.next() ?? (await pullChecked(cursor, signal))) {
      stats.add(packet, cursor);
      if ((stats.packets & 0xffff) === 0) onProgress?.(cursor.bytesRead);
    }
  } catch (error) {
    stopHashing.abort();
    throw error;
  } finally {
    await cursor.close();
  }
  const some = stats.packets > 0;
  return {
    name,
    sha256: hash ? hash.digest("hex") : await sha256!,
    bytes: cursor.bytesRead,
    info: cursor.info!,
    packets: stats.packets,
    first: some ? { sec: stats.firstSec, nsec: stats.firstNsec } : null,
    min: some ? { sec: stats.minSec, nsec: stats.minNsec } : null,
    max: some ? { sec: stats.maxSec, nsec: stats.maxNsec } : null,
    outOfOrderPackets: stats.outOfOrderPackets,
    maxLatenessNs: stats.maxLatenessNs,
    microsecondExact: stats.microsecondExact,
    linkTypes: [...stats.linkTypes],
    late: late.sorted(),
    lateIndices: stats.lateIndices,
  };
}

/**
 * The per-packet bookkeeping, kept in an object: its number fields are updated in place, whereas an async
 * function's locals live in a heap context where every new timestamp beyond 2^30 would be a fresh allocation.
 */
class TimeStats {
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
  private lastLinkType = -1;

  constructor(private readonly late: LatePackets) {}

  add(packet: CapturedPacket, source: MergeSource): void {
    const tsSec = packet.tsSec;
    const tsNsec = packet.tsNsec;
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

async function pullChecked(cursor: FileCursor, signal?: AbortSignal) {
  signal?.throwIfAborted();
  return pull(cursor);
}
