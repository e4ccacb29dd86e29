// What Suricata reads of a capture: the capture itself when its pcap-file reader takes it, else a copy in which
// every packet is framed as Ethernet (EthernetFramer), one record for each of the capture's, so that the packet
// numbers of alerts still name the capture's packets.
import fs from "node:fs";
import { type CaptureInfo, EthernetFramer, openPacketSource, PacketDecoder, PcapWriter } from "@tracemill/core";
import { forEachPacket } from "./packet-stream.js";

/**
 * Link types Suricata 7's pcap-file reader decodes (BSD loopback, Ethernet, PPP, raw IP as 12, 101, 228 and 229,
 * Linux cooked v1, Cisco HDLC). Not among them, and read by Tracemill: 14 (OpenBSD raw IP), 50 (PPP in HDLC
 * framing), 108 (OpenBSD loopback), 276 (Linux cooked v2). libpcap also refuses a pcapng file whose interfaces
 * have different link types, wherever they are.
 */
export const SURICATA_LINK_TYPES: ReadonlySet<number> = new Set([0, 1, 9, 12, 101, 104, 113, 228, 229]);

/** Bytes read for a pcap header (plainCapture has refused a capture too short to hold one and a packet). */
const HEAD_BYTES = 64;

export interface SuricataInput {
  file: string;
  /** True when `file` is the Ethernet copy. */
  framed: boolean;
}

/**
 * `capture` (plain pcap or pcapng, as plainCapture leaves it) when Suricata reads it as it is, else its Ethernet
 * copy written to `copy` (a pcap with nanosecond times). A pcap says its one link type in its header; a pcapng file is
 * read through once for its interfaces. A capture damaged part-way is copied up to the damage, as the split reads it.
 */
export async function suricataInput(capture: string, copy: string, signal?: AbortSignal): Promise<SuricataInput> {
  if (readableAsItIs(await captureInfo(capture, signal))) return { file: capture, framed: false };

  const file = fs.createWriteStream(copy);
  const failed = new Promise<never>((_, reject) => file.once("error", reject));
  failed.catch(() => {});
  const writer = new PcapWriter((chunk) => file.write(chunk), { linkType: 1, nanosecond: true });
  const decoder = new PacketDecoder();
  const framer = new EthernetFramer();
  await forEachPacket(capture, { signal }, (packet) => {
    writer.write(framer.frame(packet, decoder.decode(packet)));
    return file.writableNeedDrain
      ? Promise.race([failed, new Promise<void>((resolve) => file.once("drain", () => resolve()))])
      : undefined;
  });
  writer.finish();
  await Promise.race([failed, new Promise<void>((resolve) => file.end(() => resolve()))]);
  return { file: copy, framed: true };
}

/** A pcap's header, or every interface of a pcapng file (read through: its interface blocks may come anywhere). */
async function captureInfo(capture: string, signal?: AbortSignal): Promise<CaptureInfo> {
  const head = Buffer.alloc(HEAD_BYTES);
  const fd = fs.openSync(capture, "r");
  let length: number;
  try {
    length = fs.readSync(fd, head, 0, HEAD_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  const source = openPacketSource(head.subarray(0, length));
  if (source.info.format === "pcap") {
    // The header is read with the first record (which these bytes need not hold whole); plainCapture checked both.
    source.next();
    return source.info;
  }
  return (await forEachPacket(capture, { signal }, () => undefined)).info;
}

function readableAsItIs(info: CaptureInfo): boolean {
  const linkTypes = new Set(info.interfaces.map((i) => i.linkType));
  return info.format !== "erf" && linkTypes.size <= 1 && [...linkTypes].every((t) => SURICATA_LINK_TYPES.has(t));
}
