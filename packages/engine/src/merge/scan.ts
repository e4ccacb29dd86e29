// The first pass over an input: what placing and merging it needs (first, earliest and latest timestamps, how
// far out of order it is, its interfaces) and its SHA-256, read as a stream without keeping packets.
import type { CaptureInfo } from "@tracemill/core";
import { FileCursor } from "./file-cursor.js";
import { hashFile } from "./file-hash.js";
import { type HeldPacket, LatePackets } from "./late-packets.js";
import { pull } from "./merge-source.js";
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
  const lateIndices: number[] = [];
  const cursor = new FileCursor(file, name);
  const sha256 = hashFile(file);
  // Rejections are taken up once the pass ends; a damaged capture's error comes first.
  sha256.catch(() => {});
  let packets = 0;
  let first: Timestamp | null = null;
  let minSec = Number.POSITIVE_INFINITY;
  let minNsec = 0;
  let maxSec = Number.NEGATIVE_INFINITY;
  let maxNsec = 0;
  let outOfOrderPackets = 0;
  let maxLatenessNs = 0;
  let microsecondExact = true;
  const linkTypes = new Set<number>();
  let lastLinkType = -1;
  try {
    for (let packet = await pull(cursor); packet; packet = cursor.next() ?? (await pullChecked(cursor, signal))) {
      const { tsSec, tsNsec } = packet;
      if (packets === 0) first = { sec: tsSec, nsec: tsNsec };
      packets++;
      if (tsNsec % 1000 !== 0) microsecondExact = false;
      if (packet.linkType !== lastLinkType) {
        lastLinkType = packet.linkType;
        linkTypes.add(lastLinkType);
      }
      if (compareTimestamps(tsSec, tsNsec, maxSec, maxNsec) >= 0) {
        maxSec = tsSec;
        maxNsec = tsNsec;
      } else {
        outOfOrderPackets++;
        const lateness = (maxSec - tsSec) * 1e9 + (maxNsec - tsNsec);
        if (lateness > maxLatenessNs) maxLatenessNs = lateness;
        late.hold(packet, cursor.packetComments());
        lateIndices.push(packet.index);
      }
      if (compareTimestamps(tsSec, tsNsec, minSec, minNsec) < 0) {
        minSec = tsSec;
        minNsec = tsNsec;
      }
      if ((packets & 0xffff) === 0) onProgress?.(cursor.bytesRead);
    }
  } finally {
    cursor.close();
  }
  return {
    name,
    sha256: await sha256,
    bytes: cursor.bytesRead,
    info: cursor.info!,
    packets,
    first,
    min: packets > 0 ? { sec: minSec, nsec: minNsec } : null,
    max: packets > 0 ? { sec: maxSec, nsec: maxNsec } : null,
    outOfOrderPackets,
    maxLatenessNs,
    microsecondExact,
    linkTypes: [...linkTypes],
    late: late.sorted(),
    lateIndices,
  };
}

async function pullChecked(cursor: FileCursor, signal?: AbortSignal) {
  signal?.throwIfAborted();
  return pull(cursor);
}
