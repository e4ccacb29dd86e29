// Reader for classic libpcap files: both byte orders, microsecond and nanosecond magic, any snaplen.
import { saneLengthLimit } from "./damage.js";
import type { CapturedPacket } from "./packet.js";
import type { CaptureInfo } from "./packet-source.js";
import { ReaderBase } from "./reader-base.js";

const FILE_HEADER = 24;
const RECORD_HEADER = 16;
/**
 * Bits 16–25 of the header's link-type field are reserved and must be zero (libpcap and Wireshark refuse the file
 * otherwise); the link type is the low 16 bits; bits 26 and 28–31 carry the FCS length, which is not needed here.
 */
const LINKTYPE_RESERVED = 0x03ff0000;

export class PcapReader extends ReaderBase {
  readonly info: CaptureInfo = {
    format: "pcap",
    byteOrder: "little-endian",
    interfaces: [],
    sections: [],
    comments: [],
    skippedRecords: 0,
    warnings: [],
  };
  private headerRead = false;
  private littleEndian = true;
  /** Timestamp fraction units per second (1e6 or 1e9) and nanoseconds per unit. */
  private fractionLimit = 1e6;
  private nsPerUnit = 1000;
  private snaplen = 0;
  private linkType = 0;
  /** Largest captured length that is not damage (see capturedLengthInsane), from the snaplen. */
  private lengthLimit = 0;

  next(): CapturedPacket | null {
    // The common case, kept small so it compiles tight: past the file header, a whole valid record at hand.
    const w = this.w;
    const p = w.pos;
    const room = w.end - p;
    if (room >= RECORD_HEADER && this.headerRead && !this.done) {
      const view = w.view;
      const fraction = view.getUint32(p + 4, this.littleEndian);
      const capturedLength = view.getUint32(p + 8, this.littleEndian);
      if (
        fraction < this.fractionLimit &&
        capturedLength <= this.lengthLimit &&
        room - RECORD_HEADER >= capturedLength
      ) {
        const rec = this.rec;
        rec.tsSec = view.getUint32(p, this.littleEndian);
        rec.tsNsec = fraction * this.nsPerUnit;
        rec.originalLength = view.getUint32(p + 12, this.littleEndian);
        // Set for every packet: a caller may renumber the interface of the packet it was given (merge does).
        rec.linkType = this.linkType;
        rec.interfaceIndex = 0;
        rec.fileOffset = w.base + p;
        rec.index = this.packetCount++;
        rec.setBytes(w.buf, p + RECORD_HEADER, capturedLength);
        w.consume(RECORD_HEADER + capturedLength);
        return rec;
      }
    }
    return this.nextChecked();
  }

  /**
   * Everything else: the file header, records spanning chunks, the end of the input and damage. Once the record is
   * whole in the window and valid, next() delivers it (one copy of the hot code, inlined there).
   */
  private nextChecked(): CapturedPacket | null {
    if (this.done) return null;
    const w = this.w;
    if (!this.headerRead && !this.readFileHeader()) return null;
    if (w.end - w.pos < RECORD_HEADER && !w.need(RECORD_HEADER)) {
      return this.outOfInput(RECORD_HEADER, "packet record header", true);
    }
    const le = this.littleEndian;
    const fraction = w.view.getUint32(w.pos + 4, le);
    const capturedLength = w.view.getUint32(w.pos + 8, le);
    if (capturedLength > this.lengthLimit) {
      this.fail(w.offset, `captured length ${capturedLength} is beyond the snapshot length ${this.snaplen}`);
    }
    const total = RECORD_HEADER + capturedLength;
    if (w.end - w.pos < total && !w.need(total)) return this.outOfInput(total, "packet record", false);
    if (fraction < this.fractionLimit) return this.next();
    return this.carried(fraction, capturedLength);
  }

  /**
   * A whole record whose fraction is a second or more (a writer that did not normalise its timestamps): the whole
   * seconds in it are carried into the seconds field, as tcpdump's and Wireshark's time arithmetic does, and counted.
   */
  private carried(fraction: number, capturedLength: number): CapturedPacket {
    const w = this.w;
    const p = w.pos;
    const view = w.view;
    const le = this.littleEndian;
    const seconds = view.getUint32(p, le);
    const carry = Math.floor(fraction / this.fractionLimit);
    const rec = this.rec;
    rec.tsSec = seconds + carry;
    rec.tsNsec = (fraction - carry * this.fractionLimit) * this.nsPerUnit;
    this.warn("timestamp-carried", w.offset, () => {
      const unit = this.fractionLimit === 1e9 ? "ns" : "µs";
      const ns = String(rec.tsNsec).padStart(9, "0");
      return `timestamp fraction ${fraction} ${unit} is not below one second: carried into the seconds (${seconds} s + ${fraction} ${unit} = ${rec.tsSec}.${ns} s)`;
    });
    rec.originalLength = view.getUint32(p + 12, le);
    rec.linkType = this.linkType;
    rec.interfaceIndex = 0;
    rec.fileOffset = w.base + p;
    rec.index = this.packetCount++;
    rec.setBytes(w.buf, p + RECORD_HEADER, capturedLength);
    w.consume(RECORD_HEADER + capturedLength);
    return rec;
  }

  private readFileHeader(): boolean {
    const w = this.w;
    if (!w.need(FILE_HEADER)) {
      this.outOfInput(FILE_HEADER, "pcap file header", false);
      return false;
    }
    const b = w.buf;
    const p = w.pos;
    const magicBe = ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
    const magicLe = ((b[p + 3] << 24) | (b[p + 2] << 16) | (b[p + 1] << 8) | b[p]) >>> 0;
    const magic = magicLe === 0xa1b2c3d4 || magicLe === 0xa1b23c4d ? magicLe : magicBe;
    if (magic !== 0xa1b2c3d4 && magic !== 0xa1b23c4d) {
      this.fail(w.offset, `not a pcap file header (magic 0x${magicBe.toString(16).padStart(8, "0")})`);
    }
    this.littleEndian = magic === magicLe;
    if (magic === 0xa1b23c4d) {
      this.fractionLimit = 1e9;
      this.nsPerUnit = 1;
    }
    const view = w.view;
    const le = this.littleEndian;
    const major = view.getUint16(p + 4, le);
    const minor = view.getUint16(p + 6, le);
    if (major !== 2) this.fail(w.offset + 4, `pcap version ${major}.${minor} is not supported (2.x is)`);
    this.snaplen = view.getUint32(p + 16, le);
    this.lengthLimit = saneLengthLimit(this.snaplen);
    const linkTypeField = view.getUint32(p + 20, le);
    if ((linkTypeField & LINKTYPE_RESERVED) !== 0) {
      const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, "0")}`;
      this.fail(
        w.offset + 20,
        `pcap header link-type field ${hex(linkTypeField)} has reserved bits 16–25 set (${hex(linkTypeField & LINKTYPE_RESERVED)}): not a pcap file libpcap or Wireshark would read`,
      );
    }
    this.linkType = linkTypeField & 0xffff;
    const info = this.info;
    info.byteOrder = le ? "little-endian" : "big-endian";
    info.version = `${major}.${minor}`;
    info.sections.push({ byteOrder: info.byteOrder, offset: w.offset, comments: [] });
    info.interfaces.push({
      index: 0,
      section: 0,
      linkType: this.linkType,
      snaplen: this.snaplen,
      unitsPerSecond: this.fractionLimit,
      tsOffsetSeconds: 0,
    });
    this.headerRead = true;
    w.consume(FILE_HEADER);
    return true;
  }
}
