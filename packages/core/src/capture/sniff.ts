// Picks the reader from the first bytes of the input (never from the file name).
import { TracemillError } from "../errors.js";
import { ERF_TYPE_META, ErfReader, erfLinkType } from "./erf-reader.js";
import type { CaptureFormat, PacketSource } from "./packet-source.js";
import { PcapReader } from "./pcap-reader.js";
import { PcapngReader } from "./pcapng-reader.js";

/** Bytes worth passing to sniffCaptureFormat: enough to check a few ERF records, which have no magic. */
export const SNIFF_BYTES = 4096;
const ONE_DAY = 86400;

/**
 * The format of a capture from its first bytes (pass SNIFF_BYTES or the whole input if shorter).
 * Throws BAD_INPUT for an empty input, gzip data, and anything that is not pcap, pcapng or ERF.
 */
export function sniffCaptureFormat(first: Uint8Array): CaptureFormat {
  if (first.length === 0) throw badInput("the file is empty (0 bytes): not a capture");
  if (first.length >= 4) {
    const magic = ((first[0] << 24) | (first[1] << 16) | (first[2] << 8) | first[3]) >>> 0;
    if (magic === 0x0a0d0d0a) return "pcapng";
    if (magic === 0xa1b2c3d4 || magic === 0xd4c3b2a1 || magic === 0xa1b23c4d || magic === 0x4d3cb2a1) return "pcap";
  }
  if (first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b) {
    throw badInput("the input is gzip-compressed: decompress it first");
  }
  if (looksLikeErf(first)) return "erf";
  if (first.length < 16) throw badInput(`the file is too short to be a capture (${first.length} bytes)`);
  const hex = Array.from(first.subarray(0, 4), (b) => b.toString(16).padStart(2, "0")).join("");
  throw badInput(`not a capture file (starts with 0x${hex}): pcap, pcapng and ERF are read`);
}

/** A reader for a format. */
export function createPacketSource(format: CaptureFormat): PacketSource {
  if (format === "pcap") return new PcapReader();
  if (format === "pcapng") return new PcapngReader();
  return new ErfReader();
}

/** Sniffs the first chunk, creates the matching reader and pushes the chunk into it. */
export function openPacketSource(firstChunk: Uint8Array): PacketSource {
  const source = createPacketSource(sniffCaptureFormat(firstChunk.subarray(0, SNIFF_BYTES)));
  source.push(firstChunk);
  return source;
}

/**
 * ERF has no magic: accept when the first records (up to 4 that fit) have defined types and sane lengths, the first
 * one a packet, padding or provenance (meta) record, and their timestamps lie within a day of each other.
 */
function looksLikeErf(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  let firstSeconds = -1;
  for (let records = 0; records < 4 && p + 16 <= bytes.length; records++) {
    const type = view.getUint8(p + 8) & 0x7f;
    const rlen = view.getUint16(p + 10, false);
    const seconds = view.getUint32(p + 4, true);
    const header = erfLinkType(type) === 1 ? 18 : 16;
    if (type === 0 || (type > 29 && type !== 48) || rlen < header) return false;
    if (records === 0 && erfLinkType(type) < 0 && type !== 48 && type !== ERF_TYPE_META) return false;
    // A provenance record's time is when it was written, which need not be near the packets'.
    if (type !== ERF_TYPE_META) {
      if (firstSeconds < 0) firstSeconds = seconds;
      else if (Math.abs(seconds - firstSeconds) > ONE_DAY) return false;
    }
    p += rlen;
  }
  return true;
}

function badInput(message: string): TracemillError {
  return new TracemillError("BAD_INPUT", message, { offset: 0 });
}
