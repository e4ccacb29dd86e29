// The first pass over a plain pcap file without the reader: record headers are read straight from the chunks
// (timestamps and lengths are all that pass needs). Anything unusual — damage, a truncated end, a header the
// reader would refuse — makes it give up (ok = false), and the reader-based scan then reports it exactly.
import {
  type CaptureInfo,
  LENIENT_SNAPLEN,
  MAX_PACKET_BYTES,
  openPacketSource,
  PacketRecord,
  type PacketSource,
} from "@tracemill/core/capture";
import { CutRecord } from "./cut-record.js";
import type { CommentSource, TimeStats } from "./time-stats.js";

const FILE_HEADER = 24;
const RECORD_HEADER = 16;
const NO_COMMENTS: CommentSource = { packetComments: () => [] };

export class PcapRecordScan {
  /** False once the input looked unusual: the caller scans it with the reader instead. */
  ok = true;
  private readonly rec = new PacketRecord();
  private readonly nsPerUnit: number;
  private readonly fractionLimit: number;
  private readonly maxCaptured: number;
  /** A record cut by the end of a chunk, and the file offset it starts at. */
  private readonly tail = new CutRecord();
  private tailOffset = 0;
  /** File offset of the current chunk's first byte. */
  private base = 0;

  private constructor(
    readonly info: CaptureInfo,
    private readonly stats: TimeStats,
    private readonly littleEndian: boolean,
  ) {
    const iface = info.interfaces[0];
    this.fractionLimit = iface.unitsPerSecond;
    this.nsPerUnit = 1e9 / iface.unitsPerSecond;
    this.maxCaptured = Math.min(MAX_PACKET_BYTES, Math.max(iface.snaplen, LENIENT_SNAPLEN));
    this.rec.linkType = iface.linkType;
  }

  /** Starts on the file's first chunk; null unless it opens with a pcap header the reader accepts. */
  static start(first: Uint8Array, stats: TimeStats): PcapRecordScan | null {
    if (first.length < FILE_HEADER) return null;
    const magic = (first[0] << 24) | (first[1] << 16) | (first[2] << 8) | first[3];
    const littleEndian = magic === (0xd4c3b2a1 | 0) || magic === (0x4d3cb2a1 | 0);
    if (!littleEndian && magic !== (0xa1b2c3d4 | 0) && magic !== (0xa1b23c4d | 0)) return null;
    // The reader itself parses the header, so the capture's facts are exactly what it would report.
    let header: PacketSource;
    try {
      // Not ended: the header alone is not an empty capture (which would warn "no packets").
      header = openPacketSource(first.slice(0, FILE_HEADER));
      header.next();
    } catch {
      return null;
    }
    if (header.info.format !== "pcap" || header.info.interfaces.length !== 1) return null;
    const scan = new PcapRecordScan(header.info, stats, littleEndian);
    scan.scan(first, FILE_HEADER);
    return scan;
  }

  push(chunk: Uint8Array): void {
    let p = 0;
    if (this.tail.length > 0) p = this.completeTail(chunk);
    if (p >= 0 && this.ok) this.scan(chunk, p);
    else this.base += chunk.length;
  }

  /** True when the file ended at a record boundary. */
  finish(): boolean {
    if (this.tail.length > 0) this.ok = false;
    return this.ok;
  }

  private scan(chunk: Uint8Array, from: number): void {
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const le = this.littleEndian;
    const nsPerUnit = this.nsPerUnit;
    const stats = this.stats;
    const end = chunk.length;
    let p = from;
    while (end - p >= RECORD_HEADER) {
      const capturedLength = view.getUint32(p + 8, le);
      if (view.getUint32(p + 4, le) >= this.fractionLimit || capturedLength > this.maxCaptured) {
        this.ok = false;
        return;
      }
      if (end - p < RECORD_HEADER + capturedLength) break;
      // The common case inline: a packet in order after the first, whole microseconds when that matters.
      const sec = view.getUint32(p, le);
      const nsec = view.getUint32(p + 4, le) * nsPerUnit;
      if (
        stats.packets > 0 &&
        (sec > stats.maxSec || (sec === stats.maxSec && nsec >= stats.maxNsec)) &&
        (nsPerUnit === 1000 || nsec % 1000 === 0)
      ) {
        stats.maxSec = sec;
        stats.maxNsec = nsec;
        stats.packets++;
        stats.times.add(sec, nsec);
      } else this.record(chunk, view, p, this.base + p);
      p += RECORD_HEADER + capturedLength;
    }
    this.keepTail(chunk.subarray(p), this.base + p);
    this.base += end;
  }

  /** Tops the cut record up from the chunk: the bytes of the chunk used, or -1 when it took all of them. */
  private completeTail(chunk: Uint8Array): number {
    let used = Math.min(RECORD_HEADER - Math.min(this.tail.length, RECORD_HEADER), chunk.length);
    this.tail.append(chunk.subarray(0, used));
    if (this.tail.length < RECORD_HEADER) return -1;
    const view = new DataView(this.tail.bytes.buffer, 0, this.tail.length);
    const capturedLength = view.getUint32(8, this.littleEndian);
    if (view.getUint32(4, this.littleEndian) >= this.fractionLimit || capturedLength > this.maxCaptured) {
      this.ok = false;
      return -1;
    }
    const take = Math.min(RECORD_HEADER + capturedLength - this.tail.length, chunk.length - used);
    this.tail.append(chunk.subarray(used, used + take));
    used += take;
    if (this.tail.length < RECORD_HEADER + capturedLength) return -1;
    this.record(this.tail.bytes, new DataView(this.tail.bytes.buffer), 0, this.tailOffset);
    this.tail.length = 0;
    return used;
  }

  private record(buf: Uint8Array, view: DataView, p: number, fileOffset: number): void {
    const le = this.littleEndian;
    const rec = this.rec;
    const capturedLength = view.getUint32(p + 8, le);
    rec.tsSec = view.getUint32(p, le);
    rec.tsNsec = view.getUint32(p + 4, le) * this.nsPerUnit;
    rec.originalLength = view.getUint32(p + 12, le);
    rec.fileOffset = fileOffset;
    rec.index = this.stats.packets;
    rec.setBytes(buf, p + RECORD_HEADER, capturedLength);
    this.stats.add(rec, NO_COMMENTS);
  }

  private keepTail(bytes: Uint8Array, fileOffset: number): void {
    this.tail.length = 0;
    this.tailOffset = fileOffset;
    this.tail.append(bytes);
  }
}
