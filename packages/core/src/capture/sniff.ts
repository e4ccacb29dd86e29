// Picks the reader from the first bytes of the input (never from the file name), as the file-kind sniffer judges them.
import { TracemillError } from "../errors.js";
import { sniffFileKind } from "../file-kind/index.js";
import { ErfReader } from "./erf-reader.js";
import type { CaptureFormat, PacketSource } from "./packet-source.js";
import { PcapReader } from "./pcap-reader.js";
import { PcapngReader } from "./pcapng-reader.js";

/** Bytes worth passing to sniffCaptureFormat: enough to check a few ERF records, which have no magic. */
export const SNIFF_BYTES = 4096;

/**
 * The format of a capture from its first bytes (pass SNIFF_BYTES or the whole input if shorter).
 * Throws BAD_INPUT for an empty input, gzip data, and anything that is not pcap, pcapng or ERF.
 */
export function sniffCaptureFormat(first: Uint8Array): CaptureFormat {
  if (first.length === 0) throw badInput("the file is empty (0 bytes): not a capture");
  // The reader checks the header itself and names the problem with its offset, so only the kind counts here.
  const { kind } = sniffFileKind(first);
  if (kind === "pcap" || kind === "pcapng" || kind === "erf") return kind;
  if (kind === "gzip") throw badInput("the input is gzip-compressed: decompress it first");
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

function badInput(message: string): TracemillError {
  return new TracemillError("BAD_INPUT", message, { offset: 0 });
}
