// Reader for pcapng: sections in either byte order, several sections and interfaces, EPB/SPB/obsolete packet blocks.
import { capturedLengthInsane } from "./damage.js";
import type { CapturedPacket } from "./packet.js";
import type { CaptureInfo, CaptureInterface, CaptureSection } from "./packet-source.js";
import {
  IF_DESCRIPTION,
  IF_NAME,
  IF_TSOFFSET,
  IF_TSRESOL,
  OPT_COMMENT,
  optionInt64,
  optionText,
  readOptions,
  SHB_HARDWARE,
  SHB_OS,
  SHB_USERAPPL,
} from "./pcapng-options.js";
import { ReaderBase } from "./reader-base.js";
import { splitTicks, type TickScale, type Timestamp, tickScale, unitsPerSecondOfTsresol } from "./timestamp.js";

const SHB = 0x0a0d0d0a;
const IDB = 1;
const OBSOLETE_PACKET = 2;
const SPB = 3;
const EPB = 6;
const BOM = 0x1a2b3c4d;
/** Largest block accepted: bounds the memory one block can take (Wireshark's limit is the same order). */
const MAX_BLOCK = 16 * 1024 * 1024 + 4096;

interface SectionInterface {
  global: CaptureInterface;
  scale: TickScale;
}

export class PcapngReader extends ReaderBase {
  readonly info: CaptureInfo = {
    format: "pcapng",
    byteOrder: "little-endian",
    interfaces: [],
    sections: [],
    comments: [],
    skippedRecords: 0,
    warnings: [],
  };
  private le = true;
  private interfaces: SectionInterface[] = [];
  private readonly ts: Timestamp = { tsSec: 0, tsNsec: 0 };
  /** Where the options of the last packet block are, for packetComments(). */
  private optionsBuf: Uint8Array = new Uint8Array(0);
  private optionsStart = 0;
  private optionsEnd = 0;

  next(): CapturedPacket | null {
    if (this.done) return null;
    const w = this.w;
    for (;;) {
      if (w.end - w.pos < 12 && !w.need(12)) return this.outOfInput(12, "block header", true);
      let view = w.view;
      let p = w.pos;
      const type = view.getUint32(p, this.le);
      if (type === SHB) this.sectionByteOrder(view, p);
      else if (this.info.sections.length === 0)
        this.fail(w.offset, "the file does not start with a section header block");
      const le = this.le;
      const length = view.getUint32(p + 4, le);
      if (length < 12 || length % 4 !== 0 || length > MAX_BLOCK) {
        this.fail(w.offset, `block length ${length} is impossible (block type 0x${type.toString(16)})`);
      }
      if (w.end - p < length) {
        if (!w.need(length)) return this.outOfInput(length, "block", false);
        view = w.view;
        p = w.pos;
      }
      const trailer = view.getUint32(p + length - 4, le);
      if (trailer !== length) {
        this.fail(w.offset, `block length lies: the header says ${length}, the trailer says ${trailer}`);
      }
      let packet: CapturedPacket | null = null;
      if (type === EPB) packet = this.packetBlock(view, p, length, 8, true);
      else if (type === OBSOLETE_PACKET) packet = this.packetBlock(view, p, length, 8, false);
      else if (type === SPB) packet = this.simplePacket(view, p, length);
      else if (type === IDB) this.interfaceBlock(view, p, length);
      else if (type === SHB) this.sectionBlock(view, p, length);
      else this.info.skippedRecords++;
      w.consume(length);
      if (packet !== null) return packet;
    }
  }

  override packetComments(): string[] {
    if (this.optionsEnd <= this.optionsStart) return [];
    const b = this.optionsBuf;
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const options = readOptions(b, view, this.optionsStart, this.optionsEnd, this.le);
    if (typeof options === "string") return [];
    return options.filter((o) => o.code === OPT_COMMENT).map(optionText);
  }

  /** EPB (32-bit interface id) or the obsolete packet block (16-bit id + drop count): same layout otherwise. */
  private packetBlock(view: DataView, p: number, length: number, at: number, enhanced: boolean): CapturedPacket {
    const le = this.le;
    if (length < 32) this.fail(this.w.offset, `packet block of ${length} bytes is too short`);
    const id = enhanced ? view.getUint32(p + at, le) : view.getUint16(p + at, le);
    const iface = this.interfaces[id];
    if (iface === undefined) {
      this.fail(this.w.offset, `packet refers to interface ${id}, the section declares ${this.interfaces.length}`);
    }
    const capturedLength = view.getUint32(p + 20, le);
    if (28 + capturedLength > length - 4) {
      this.fail(this.w.offset, `captured length ${capturedLength} runs past the end of its ${length}-byte block`);
    }
    if (capturedLengthInsane(capturedLength, iface.global.snaplen)) {
      this.fail(
        this.w.offset,
        `captured length ${capturedLength} is beyond the snapshot length ${iface.global.snaplen}`,
      );
    }
    const ts = this.ts;
    splitTicks(view.getUint32(p + 12, le), view.getUint32(p + 16, le), iface.scale, ts);
    const rec = this.rec;
    rec.tsSec = ts.tsSec + iface.global.tsOffsetSeconds;
    rec.tsNsec = ts.tsNsec;
    rec.originalLength = view.getUint32(p + 24, le);
    return this.deliver(iface, p, 28, capturedLength, length);
  }

  /** SPB: no timestamp (the packet keeps the previous packet's), interface 0, length from the block. */
  private simplePacket(view: DataView, p: number, length: number): CapturedPacket {
    if (length < 16) this.fail(this.w.offset, `simple packet block of ${length} bytes is too short`);
    const iface = this.interfaces[0];
    if (iface === undefined) this.fail(this.w.offset, "simple packet block in a section without interfaces");
    const originalLength = view.getUint32(p + 8, this.le);
    let capturedLength = Math.min(originalLength, length - 16);
    if (iface.global.snaplen > 0) capturedLength = Math.min(capturedLength, iface.global.snaplen);
    this.rec.originalLength = originalLength;
    return this.deliver(iface, p, 12, capturedLength, 0);
  }

  private deliver(iface: SectionInterface, p: number, at: number, capturedLength: number, length: number) {
    const w = this.w;
    const rec = this.rec;
    rec.linkType = iface.global.linkType;
    rec.interfaceIndex = iface.global.index;
    rec.fileOffset = w.base + p;
    rec.index = this.packetCount++;
    rec.setBytes(w.buf, p + at, capturedLength);
    this.optionsBuf = w.buf;
    this.optionsStart = p + at + ((capturedLength + 3) & ~3);
    this.optionsEnd = length === 0 ? 0 : p + length - 4;
    return rec;
  }

  private sectionByteOrder(view: DataView, p: number): void {
    const bom = view.getUint32(p + 8, false);
    if (bom === BOM) this.le = false;
    else if (bom === 0x4d3c2b1a) this.le = true;
    else this.fail(this.w.offset, `section header with an unknown byte-order magic 0x${bom.toString(16)}`);
  }

  private sectionBlock(view: DataView, p: number, length: number): void {
    const le = this.le;
    if (length < 28) this.fail(this.w.offset, `section header block of ${length} bytes is too short`);
    const major = view.getUint16(p + 12, le);
    const minor = view.getUint16(p + 14, le);
    if (major !== 1 || (minor !== 0 && minor !== 2)) {
      this.fail(this.w.offset, `pcapng version ${major}.${minor} is not supported (1.0 and 1.2 are)`);
    }
    const options = readOptions(this.w.buf, view, p + 24, p + length - 4, le);
    if (typeof options === "string") this.fail(this.w.offset, `section header: ${options}`);
    const byteOrder = le ? "little-endian" : "big-endian";
    const info = this.info;
    const entry: CaptureSection = { byteOrder, offset: this.w.offset, comments: [] };
    for (const option of options) {
      if (option.code === OPT_COMMENT) entry.comments.push(optionText(option));
      else if (option.code === SHB_HARDWARE) entry.hardware = optionText(option);
      else if (option.code === SHB_OS) entry.os = optionText(option);
      else if (option.code === SHB_USERAPPL) entry.application = optionText(option);
    }
    info.byteOrder = info.sections.length === 0 || info.byteOrder === byteOrder ? byteOrder : "mixed";
    info.sections.push(entry);
    info.comments.push(...entry.comments);
    this.interfaces = [];
  }

  private interfaceBlock(view: DataView, p: number, length: number): void {
    const le = this.le;
    if (length < 20) this.fail(this.w.offset, `interface description block of ${length} bytes is too short`);
    const options = readOptions(this.w.buf, view, p + 16, p + length - 4, le);
    if (typeof options === "string") this.fail(this.w.offset, `interface description: ${options}`);
    const global: CaptureInterface = {
      index: this.info.interfaces.length,
      section: this.info.sections.length - 1,
      linkType: view.getUint16(p + 8, le),
      snaplen: view.getUint32(p + 12, le),
      unitsPerSecond: 1e6,
      tsOffsetSeconds: 0,
    };
    for (const option of options) {
      if (option.code === IF_NAME) global.name = optionText(option);
      else if (option.code === IF_DESCRIPTION) global.description = optionText(option);
      else if (option.code === IF_TSRESOL && option.value.length >= 1) {
        global.unitsPerSecond = unitsPerSecondOfTsresol(option.value[0]);
      } else if (option.code === IF_TSOFFSET) global.tsOffsetSeconds = optionInt64(option, le) ?? 0;
    }
    if (!Number.isFinite(global.unitsPerSecond) || global.unitsPerSecond > 2 ** 64) {
      this.fail(this.w.offset, `interface timestamp resolution ${global.unitsPerSecond} is out of range`);
    }
    this.info.interfaces.push(global);
    this.interfaces.push({ global, scale: tickScale(global.unitsPerSecond) });
  }
}
