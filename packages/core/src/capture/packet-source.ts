// The one interface every capture reader implements, and the capture-level facts it exposes.
import type { CapturedPacket } from "./packet.js";

/** Container formats Tracemill reads, found from the magic bytes (never from the file name). */
export type CaptureFormat = "pcap" | "pcapng" | "erf";

/** Byte order of the file's headers; "mixed" when pcapng sections differ. ERF headers are big-endian. */
export type CaptureByteOrder = "little-endian" | "big-endian" | "mixed";

/** One capture interface: a pcapng IDB, the single interface of a pcap file, or an ERF port seen in the records. */
export interface CaptureInterface {
  /**
   * Index as carried by CapturedPacket.interfaceIndex (pcapng: counted across all sections, equal to the position
   * in `interfaces`; ERF: the port, listing only ports seen, in port order — look interfaces up by this field).
   */
  index: number;
  /** 0-based section the interface was declared in (pcapng); 0 otherwise. */
  section: number;
  /** LINKTYPE_* value. */
  linkType: number;
  /** Snapshot length in bytes; 0 when the file does not say. */
  snaplen: number;
  /** Timestamp units per second (1e6 for µs, 1e9 for ns, 2^n for binary resolutions). */
  unitsPerSecond: number;
  /** pcapng if_tsoffset: seconds added to every timestamp of the interface. */
  tsOffsetSeconds: number;
  /** pcapng if_name / if_description, ERF "port A".. names; undefined when absent. */
  name?: string;
  description?: string;
}

/** One pcapng section (a pcap or ERF file is one section). */
export interface CaptureSection {
  byteOrder: "little-endian" | "big-endian";
  /** Byte offset of the section header in the input. */
  offset: number;
  hardware?: string;
  os?: string;
  application?: string;
  comments: string[];
}

/** Capture-level facts; they grow while reading (pcapng interfaces and sections appear as their blocks are read). */
export interface CaptureInfo {
  format: CaptureFormat;
  byteOrder: CaptureByteOrder;
  /** pcap: the header's version and snaplen; absent for other formats. */
  version?: string;
  interfaces: CaptureInterface[];
  sections: CaptureSection[];
  /** Comments of all sections, in order. */
  comments: string[];
  /**
   * Blocks or records that carry no packet and were skipped (pcapng statistics, name resolution, custom; ERF
   * provenance/meta records, padding and other non-packet types).
   */
  skippedRecords: number;
  /** What was read past without stopping, one entry per kind (see CaptureWarning). */
  warnings: CaptureWarning[];
}

/**
 * Something unusual that did not stop reading: counted, with where it first happened. Codes:
 * "timestamp-carried" (a pcap fraction of a second or more, carried into the seconds), "no-packets" (the capture
 * ended cleanly without a single packet).
 */
export interface CaptureWarning {
  code: "timestamp-carried" | "no-packets";
  /** Records concerned (1 for "no-packets"). */
  count: number;
  /** Byte offset of the first one (in the decompressed input). */
  offset: number;
  /** The first occurrence, for a person. */
  message: string;
}

/** Why reading stopped early. */
export interface CaptureDamage {
  /** Byte offset (in the decompressed input) where the damage was found. */
  offset: number;
  /** What is wrong, for a person: "truncated record: …", "block length 12 lies: …". */
  message: string;
}

/**
 * A streaming capture reader. Bytes go in with push(), packets come out of next(); everything is synchronous.
 *
 * Usage: push a chunk, call next() until it returns null, push the next chunk, …, end(), next() until null.
 * A chunk is read in place (not copied) until next() returns null: do not modify it before that.
 * Records may span chunks (even 1-byte chunks); the reader keeps a carry buffer for them.
 *
 * The packet next() returns is one reused object whose `data` is valid until the next call to next() or push().
 * On damage next() throws a TracemillError (DAMAGED_INPUT when packets were delivered, BAD_INPUT otherwise),
 * sets `damage` and `done`; packets before the damage have been delivered.
 */
export interface PacketSource {
  readonly info: CaptureInfo;
  /** True once every packet has been delivered (after end()) or reading stopped at damage. */
  readonly done: boolean;
  readonly damage: CaptureDamage | null;
  /** Packets delivered so far. */
  readonly packetCount: number;
  /** Bytes of input consumed so far (the offset of the next record). */
  readonly consumedBytes: number;
  push(chunk: Uint8Array): void;
  end(): void;
  next(): CapturedPacket | null;
  /** Comments of the packet last returned by next() (pcapng opt_comment); empty for other formats. */
  packetComments(): string[];
}
