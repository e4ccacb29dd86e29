// What `tracemill info` shows: capinfos' facts about a capture plus the decoder's view (IP versions, transports,
// truncated and malformed packets), from one streaming pass.
import { type CaptureWarning, linkTypeName } from "@tracemill/core/capture";
import { DecodeKind, PacketDecoder } from "@tracemill/core/decode";
import { type CaptureTime, type ReadCaptureOptions, readCapture } from "../input/read-capture.js";

export interface CaptureSummary {
  file: string;
  format: string;
  compressed: boolean;
  byteOrder: string;
  /** pcap header version ("2.4"); absent for pcapng and ERF. */
  version?: string;
  sections: number;
  comments: string[];
  interfaces: {
    index: number;
    linkType: number;
    linkTypeName: string;
    snaplen: number;
    /** "ns", "µs", "ms", or "1/N s". */
    resolution: string;
    name?: string;
    description?: string;
  }[];
  /** Link types of the packets, with how many packets each. */
  linkTypes: { linkType: number; name: string; packets: number }[];
  packets: number;
  /** Bytes on the wire (original lengths), as capinfos' data size. */
  bytes: number;
  capturedBytes: number;
  /** Earliest and latest timestamp, ISO 8601 UTC with nanoseconds; null without packets. */
  first: string | null;
  last: string | null;
  /** last − first in seconds, exact to the nanosecond as text ("12.000000001"). */
  duration: string | null;
  ipv4: number;
  ipv6: number;
  tcp: number;
  udp: number;
  /** Packets that are neither TCP nor UDP (other IP protocols, non-IP, fragments without ports, undecodable). */
  other: number;
  /**
   * Packets the capture cut before their IP header and ports were complete (DecodedPacket.truncated): the same count
   * as a run summary's `packets.ignored.truncated`. Packets cut later are in `snapped` only.
   */
  truncated: number;
  /** Packets with inconsistent headers. */
  malformed: number;
  /** Packets captured shorter than on the wire (snaplen). */
  snapped: number;
  /** Link types the decoder does not know, with their packets (counted as other). */
  undecodedLinkTypes: { linkType: number; name: string; packets: number }[];
  skippedRecords: number;
  /** What the reader read past without stopping: carried timestamps, no packets at all (docs/formats.md). */
  warnings: CaptureWarning[];
  complete: boolean;
  damage?: { offset: number; message: string };
}

/** Reads the capture once and summarises it; damage part-way gives complete: false (see readCapture). */
export async function summarizeCapture(file: string, options: ReadCaptureOptions = {}): Promise<CaptureSummary> {
  const decoder = new PacketDecoder();
  const byLinkType = new Map<number, number>();
  const counts = { ipv4: 0, ipv6: 0, tcp: 0, udp: 0, other: 0, truncated: 0, malformed: 0, snapped: 0 };
  const result = await readCapture(
    file,
    (packet) => {
      byLinkType.set(packet.linkType, (byLinkType.get(packet.linkType) ?? 0) + 1);
      if (packet.capturedLength < packet.originalLength) counts.snapped++;
      const d = decoder.decode(packet);
      if (d.ipVersion === 4) counts.ipv4++;
      else if (d.ipVersion === 6) counts.ipv6++;
      if (d.kind === DecodeKind.Tcp) counts.tcp++;
      else if (d.kind === DecodeKind.Udp) counts.udp++;
      else counts.other++;
      if (d.truncated) counts.truncated++;
      if (d.malformed) counts.malformed++;
    },
    options,
  );
  const info = result.info;
  return {
    file,
    format: result.format,
    compressed: result.compressed,
    byteOrder: info.byteOrder,
    ...(info.version ? { version: info.version } : {}),
    sections: info.sections.length,
    comments: info.comments,
    interfaces: [...info.interfaces]
      .sort((a, b) => a.index - b.index)
      .map((i) => ({
        index: i.index,
        linkType: i.linkType,
        linkTypeName: linkTypeName(i.linkType),
        snaplen: i.snaplen,
        resolution: resolution(i.unitsPerSecond),
        ...(i.name !== undefined ? { name: i.name } : {}),
        ...(i.description !== undefined ? { description: i.description } : {}),
      })),
    linkTypes: [...byLinkType]
      .sort(([a], [b]) => a - b)
      .map(([linkType, packets]) => ({ linkType, name: linkTypeName(linkType), packets })),
    packets: result.packets,
    bytes: result.bytes,
    capturedBytes: result.capturedBytes,
    first: isoTime(result.first),
    last: isoTime(result.last),
    duration: result.first && result.last ? difference(result.first, result.last) : null,
    ...counts,
    undecodedLinkTypes: [...decoder.unknownLinkTypes]
      .sort(([a], [b]) => a - b)
      .map(([linkType, packets]) => ({ linkType, name: linkTypeName(linkType), packets })),
    skippedRecords: info.skippedRecords,
    warnings: info.warnings,
    complete: result.complete,
    ...(result.damage ? { damage: result.damage } : {}),
  };
}

function resolution(unitsPerSecond: number): string {
  if (unitsPerSecond === 1e9) return "ns";
  if (unitsPerSecond === 1e6) return "µs";
  if (unitsPerSecond === 1e3) return "ms";
  return `1/${unitsPerSecond} s`;
}

/** 2024-10-28T19:50:02.900383409Z; seconds since the epoch when the date is beyond what Date holds. */
export function isoTime(t: CaptureTime | null): string | null {
  if (t === null) return null;
  const fraction = String(t.tsNsec).padStart(9, "0");
  const date = new Date(t.tsSec * 1000);
  if (Number.isNaN(date.getTime())) return `${t.tsSec}.${fraction}`;
  return date.toISOString().replace(/\.\d{3}Z$/, `.${fraction}Z`);
}

function difference(a: CaptureTime, b: CaptureTime): string {
  let seconds = b.tsSec - a.tsSec;
  let nanoseconds = b.tsNsec - a.tsNsec;
  if (nanoseconds < 0) {
    seconds -= 1;
    nanoseconds += 1e9;
  }
  return `${seconds}.${String(nanoseconds).padStart(9, "0")}`;
}
