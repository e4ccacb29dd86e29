// Writes little-endian pcapng: one section, interface descriptions with their options, enhanced packet blocks with comments.
import { ByteBatch, type ByteSink } from "./byte-batch.js";
import type { CapturedPacket } from "./packet.js";
import type { CaptureInfo } from "./packet-source.js";
import {
  IF_DESCRIPTION,
  IF_NAME,
  IF_TSRESOL,
  OPT_COMMENT,
  SHB_HARDWARE,
  SHB_OS,
  SHB_USERAPPL,
} from "./pcapng-options.js";
import { joinTicks } from "./timestamp.js";
import { encodeUtf8 } from "./utf8.js";

export interface PcapngInterfaceOptions {
  linkType: number;
  /** Default 262144. */
  snaplen?: number;
  name?: string;
  description?: string;
  /** Decimal digits of the timestamps: 6 (µs) or 9 (ns, the default). */
  tsresol?: 6 | 9;
}

export interface PcapngWriterOptions {
  /** Interfaces declared up front: a packet with interfaceIndex i goes to interface i when the link types match. */
  interfaces?: PcapngInterfaceOptions[];
  /** Section header options. */
  hardware?: string;
  os?: string;
  application?: string;
  comments?: string[];
  /** Size of the chunks handed to the sink; default 1 MiB. */
  batchBytes?: number;
}

type Option = [code: number, value: Uint8Array];

export class PcapngWriter {
  private readonly batch: ByteBatch;
  /** Interface id by interfaceIndex·65536 + linkType: a packet of an undeclared pair gets a new IDB. */
  private readonly ids = new Map<number, number>();
  private readonly units: number[] = [];
  private readonly declared: PcapngInterfaceOptions[];
  private readonly ticks = { hi: 0, lo: 0 };
  packetCount = 0;

  constructor(sink: ByteSink, options: PcapngWriterOptions = {}) {
    this.batch = new ByteBatch(sink, options.batchBytes);
    this.declared = options.interfaces ?? [];
    const shb: Option[] = [];
    for (const comment of options.comments ?? []) shb.push([OPT_COMMENT, encodeUtf8(comment)]);
    if (options.hardware) shb.push([SHB_HARDWARE, encodeUtf8(options.hardware)]);
    if (options.os) shb.push([SHB_OS, encodeUtf8(options.os)]);
    if (options.application) shb.push([SHB_USERAPPL, encodeUtf8(options.application)]);
    const body = new Uint8Array(16);
    const v = new DataView(body.buffer);
    v.setUint32(0, 0x1a2b3c4d, true);
    v.setUint16(4, 1, true);
    v.setUint16(6, 0, true);
    v.setInt32(8, -1, true);
    v.setInt32(12, -1, true);
    this.block(0x0a0d0d0a, body, shb);
    this.declared.forEach((iface, index) => {
      this.addInterface(iface, index);
    });
  }

  /** Writes an EPB for the packet, with its comments (pcapng opt_comment) when given. */
  write(packet: CapturedPacket, comments: readonly string[] = []): void {
    const key = packet.interfaceIndex * 65536 + packet.linkType;
    let id = this.ids.get(key);
    if (id === undefined) {
      const like = this.declared[packet.interfaceIndex];
      id = this.addInterface({ ...like, linkType: packet.linkType }, packet.interfaceIndex);
    }
    const options: Option[] = comments.map((c) => [OPT_COMMENT, encodeUtf8(c)]);
    const length = packet.capturedLength;
    const padded = (length + 3) & ~3;
    const total = 32 + padded + optionsLength(options);
    const b = this.batch;
    const at = b.reserve(total);
    const v = b.view;
    joinTicks(packet.tsSec, packet.tsNsec, this.units[id], this.ticks);
    v.setUint32(at, 6, true);
    v.setUint32(at + 4, total, true);
    v.setUint32(at + 8, id, true);
    v.setUint32(at + 12, this.ticks.hi, true);
    v.setUint32(at + 16, this.ticks.lo, true);
    v.setUint32(at + 20, length, true);
    v.setUint32(at + 24, packet.originalLength, true);
    b.buf.set(packet.data, at + 28);
    b.buf.fill(0, at + 28 + length, at + 28 + padded);
    writeOptions(b, at + 28 + padded, options);
    v.setUint32(at + total - 4, total, true);
    this.packetCount++;
  }

  /** Hands every pending byte to the sink. */
  finish(): void {
    this.batch.flush();
  }

  private addInterface(iface: PcapngInterfaceOptions, interfaceIndex: number): number {
    const id = this.units.length;
    const tsresol = iface.tsresol ?? 9;
    const options: Option[] = [];
    if (iface.name !== undefined) options.push([IF_NAME, encodeUtf8(iface.name)]);
    if (iface.description !== undefined) options.push([IF_DESCRIPTION, encodeUtf8(iface.description)]);
    options.push([IF_TSRESOL, Uint8Array.of(tsresol)]);
    const body = new Uint8Array(8);
    const v = new DataView(body.buffer);
    v.setUint16(0, iface.linkType, true);
    v.setUint32(4, iface.snaplen ?? 262144, true);
    this.block(1, body, options);
    this.units.push(10 ** tsresol);
    this.ids.set(interfaceIndex * 65536 + iface.linkType, id);
    return id;
  }

  private block(type: number, body: Uint8Array, options: Option[]): void {
    const total = 12 + body.length + optionsLength(options);
    const b = this.batch;
    const at = b.reserve(total);
    b.view.setUint32(at, type, true);
    b.view.setUint32(at + 4, total, true);
    b.buf.set(body, at + 8);
    writeOptions(b, at + 8 + body.length, options);
    b.view.setUint32(at + total - 4, total, true);
  }
}

/** Bytes the options take with their end-of-options marker; 0 without options. */
function optionsLength(options: Option[]): number {
  if (options.length === 0) return 0;
  let n = 4;
  for (const [, value] of options) n += 4 + ((value.length + 3) & ~3);
  return n;
}

function writeOptions(b: ByteBatch, at: number, options: Option[]): void {
  if (options.length === 0) return;
  for (const [code, value] of options) {
    b.view.setUint16(at, code, true);
    b.view.setUint16(at + 2, value.length, true);
    b.buf.set(value, at + 4);
    const padded = (value.length + 3) & ~3;
    b.buf.fill(0, at + 4 + value.length, at + 4 + padded);
    at += 4 + padded;
  }
  b.view.setUint32(at, 0, true);
}

/** Interface declarations that reproduce a reader's interfaces (names, descriptions, snaplen; ns when finer than µs). */
export function pcapngInterfacesOf(info: CaptureInfo): PcapngInterfaceOptions[] {
  return [...info.interfaces]
    .sort((a, b) => a.index - b.index)
    .map((i) => ({
      linkType: i.linkType,
      snaplen: i.snaplen || undefined,
      name: i.name,
      description: i.description,
      tsresol: i.unitsPerSecond > 1e6 ? 9 : 6,
    }));
}
