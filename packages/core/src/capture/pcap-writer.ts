// Writes classic little-endian pcap with microsecond or nanosecond timestamps.
import { TracemillError } from "../errors.js";
import { ByteBatch, type ByteSink } from "./byte-batch.js";
import type { CapturedPacket } from "./packet.js";

export interface PcapWriterOptions {
  /** LINKTYPE_* of every packet; default: the first packet's (Ethernet when there is none). */
  linkType?: number;
  /** Snapshot length in the header; default 262144. */
  snaplen?: number;
  /** Nanosecond timestamps (magic a1b23c4d); default false: microseconds, truncated. */
  nanosecond?: boolean;
  /** Size of the chunks handed to the sink; default 1 MiB. */
  batchBytes?: number;
}

export class PcapWriter {
  private readonly batch: ByteBatch;
  private readonly options: PcapWriterOptions;
  private linkType = -1;
  packetCount = 0;

  constructor(sink: ByteSink, options: PcapWriterOptions = {}) {
    this.batch = new ByteBatch(sink, options.batchBytes);
    this.options = options;
    if (options.linkType !== undefined) this.writeHeader(options.linkType);
  }

  write(packet: CapturedPacket): void {
    if (this.linkType < 0) this.writeHeader(packet.linkType);
    else if (packet.linkType !== this.linkType) {
      throw new TracemillError(
        "BAD_OPTION",
        `a pcap file holds one link type (${this.linkType}); packet ${packet.index} has ${packet.linkType}: write pcapng`,
      );
    }
    const length = packet.capturedLength;
    const b = this.batch;
    const at = b.reserve(16 + length);
    const v = b.view;
    v.setUint32(at, packet.tsSec, true);
    v.setUint32(at + 4, this.options.nanosecond ? packet.tsNsec : Math.floor(packet.tsNsec / 1000), true);
    v.setUint32(at + 8, length, true);
    v.setUint32(at + 12, packet.originalLength, true);
    b.buf.set(packet.data, at + 16);
    this.packetCount++;
  }

  /**
   * Appends `count` whole packet records copied verbatim from `bytes[start, end)`: records already in this
   * file's layout (little-endian, this timestamp resolution), e.g. read from a pcap with the same header. A
   * link type must be set (option or earlier packet), since records do not carry one.
   */
  writeRecords(bytes: Uint8Array, start: number, end: number, count: number): void {
    if (this.linkType < 0) throw new TracemillError("BAD_OPTION", "writeRecords() needs the link type first");
    const b = this.batch;
    // Large runs fill the current chunk and continue in the next: chunks are bytes of the file, not records.
    for (let from = start; from < end; ) {
      const room = b.buf.length - b.used;
      const n = room > 0 ? Math.min(room, end - from) : Math.min(end - from, b.buf.length);
      const at = b.reserve(n);
      b.buf.set(bytes.subarray(from, from + n), at);
      from += n;
    }
    this.packetCount += count;
  }

  /** Gives back a chunk the sink has written out, for reuse: every byte this writer reserves is set. */
  recycle(chunk: Uint8Array): void {
    this.batch.recycle(chunk);
  }

  /** Writes the header if no packet did, and hands every pending byte to the sink. */
  finish(): void {
    if (this.linkType < 0) this.writeHeader(1);
    this.batch.flush();
  }

  private writeHeader(linkType: number): void {
    this.linkType = linkType;
    const b = this.batch;
    const at = b.reserve(24);
    const v = b.view;
    v.setUint32(at, this.options.nanosecond ? 0xa1b23c4d : 0xa1b2c3d4, true);
    v.setUint16(at + 4, 2, true);
    v.setUint16(at + 6, 4, true);
    v.setUint32(at + 8, 0, true);
    v.setUint32(at + 12, 0, true);
    v.setUint32(at + 16, this.options.snaplen ?? 262144, true);
    v.setUint32(at + 20, linkType, true);
  }
}
