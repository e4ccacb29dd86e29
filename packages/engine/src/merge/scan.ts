// The first pass over an input: what placing and merging it needs (first, earliest and latest timestamps, how
// far out of order it is, its interfaces), read as a stream without keeping packets. A plain pcap's chunks also
// go to the input's hashing (engine/hashing).
import type { CaptureInfo } from "@tracemill/core/capture";
import type { TimeHistogram } from "@tracemill/core/timeline";
import type { InputDigests } from "../hashing/index.js";
import {
  CaptureCursor,
  CaptureInput,
  CHUNKS_PER_TURN,
  DEFAULT_CHUNK_BYTES,
  namedFault,
  yieldToEventLoop,
} from "../input/index.js";
import { type HeldPacket, LatePackets } from "./late-packets.js";
import { pull } from "./merge-source.js";
import { PcapRecordScan } from "./pcap-scan.js";
import { TimeStats } from "./time-stats.js";
import type { Timestamp } from "./timestamp.js";

export interface CaptureScan {
  name: string;
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
  /** Packets over time (in the capture's own time), for the summary's timeline. */
  times: TimeHistogram;
}

/** Where the scan of input `input` (0 or 1) hands its chunks for hashing; null when nothing is hashed. */
export interface ScanFeed {
  feed: InputDigests | null;
  input: number;
}

export async function scanCapture(
  file: string,
  name: string,
  maxLateBytes: number,
  signal?: AbortSignal,
  onProgress?: (bytesRead: number) => void,
  feed: ScanFeed = { feed: null, input: 0 },
): Promise<CaptureScan> {
  return (
    (await scanPlainPcap(file, name, maxLateBytes, feed, signal, onProgress)) ??
    scanWithReader(file, name, maxLateBytes, signal, onProgress)
  );
}

/** The fast pass of an uncompressed pcap: raw record headers; null to use the reader. */
async function scanPlainPcap(
  file: string,
  name: string,
  maxLateBytes: number,
  { feed, input: which }: ScanFeed,
  signal: AbortSignal | undefined,
  onProgress: ((bytesRead: number) => void) | undefined,
): Promise<CaptureScan | null> {
  // Feeds the hashing worker while it keeps up; then the worker reads the rest of the file itself. Hashed on this
  // thread, a chunk is best read here too: it is then hashed from this core's cache.
  const input = await CaptureInput.open(file, DEFAULT_CHUNK_BYTES, {
    tap: feed?.tap(which),
    synchronous: feed?.place === "first-pass",
    copiesTails: true,
  });
  if (input.compressed) {
    // gzip: hashed as stored, so the worker reads the file itself (the input ended the tap), starting now.
    await input.close();
    return null;
  }
  try {
    const late = new LatePackets(maxLateBytes, name);
    const stats = new TimeStats(late);
    let scan: PcapRecordScan | null = null;
    let chunks = 0;
    const read = () => input.read().catch((error) => Promise.reject(namedFault(error, name, stats.packets)));
    for (let chunk = await read(); chunk; chunk = await read()) {
      if (scan) scan.push(chunk);
      else scan = PcapRecordScan.start(chunk, stats);
      if (!scan?.ok) return null;
      onProgress?.(input.fileBytesRead);
      if (++chunks % CHUNKS_PER_TURN === 0) await yieldToEventLoop();
      signal?.throwIfAborted();
    }
    if (!scan?.finish()) return null;
    return result(name, input.fileBytesRead, scan.info, stats, late);
  } finally {
    await input.close();
  }
}

async function scanWithReader(
  file: string,
  name: string,
  maxLateBytes: number,
  signal?: AbortSignal,
  onProgress?: (bytesRead: number) => void,
): Promise<CaptureScan> {
  const late = new LatePackets(maxLateBytes, name);
  const stats = new TimeStats(late);
  const cursor = await CaptureCursor.open(file, { name, damage: "throw" });
  try {
    for (let packet = await pull(cursor); packet; packet = cursor.next() ?? (await pullChecked(cursor, signal))) {
      stats.add(packet, cursor);
      if ((stats.packets & 0xffff) === 0) onProgress?.(cursor.bytesRead);
    }
  } finally {
    await cursor.close();
  }
  return result(name, cursor.bytesRead, cursor.info, stats, late);
}

function result(name: string, bytes: number, info: CaptureInfo, stats: TimeStats, late: LatePackets): CaptureScan {
  const some = stats.packets > 0;
  return {
    name,
    bytes,
    info,
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
    times: stats.times,
  };
}

async function pullChecked(cursor: CaptureCursor, signal?: AbortSignal) {
  signal?.throwIfAborted();
  return pull(cursor);
}
