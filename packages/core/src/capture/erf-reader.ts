// Reader for Endace ERF records: Ethernet and IPv4/IPv6 types, rlen/wlen, Ethernet padding, extension headers;
// provenance (meta) records, padding and other non-packet types are skipped and counted wherever they appear.

import {
  isDefinedErfType as definedErfType,
  LINKTYPE_ETHERNET as ERF_ETHERNET,
  ERF_HEADER,
  erfLinkType as linkTypeOfErfType,
} from "./erf-types.js";
import type { CapturedPacket } from "./packet.js";
import type { CaptureInfo } from "./packet-source.js";
import { ReaderBase } from "./reader-base.js";

// Module constants bound to erf-types' values and functions: V8 folds a module's own constants into the per-record
// code, while it reads an imported binding from its module on every use.
const HEADER = ERF_HEADER;
const LINKTYPE_ETHERNET = ERF_ETHERNET;
const erfLinkType = linkTypeOfErfType;
const isDefinedErfType = definedErfType;

export class ErfReader extends ReaderBase {
  readonly info: CaptureInfo = {
    format: "erf",
    byteOrder: "big-endian",
    interfaces: [],
    sections: [{ byteOrder: "big-endian", offset: 0, comments: [] }],
    comments: [],
    skippedRecords: 0,
    warnings: [],
  };
  private readonly seenPorts = [false, false, false, false];

  next(): CapturedPacket | null {
    if (this.done) return null;
    const w = this.w;
    for (;;) {
      if (w.end - w.pos < HEADER && !w.need(HEADER)) return this.outOfInput(HEADER, "ERF record header", true);
      let view = w.view;
      let p = w.pos;
      const typeByte = view.getUint8(p + 8);
      const type = typeByte & 0x7f;
      const rlen = view.getUint16(p + 10, false);
      if (!isDefinedErfType(type)) {
        this.fail(w.offset, `ERF record type ${type} is not defined (not an ERF record)`);
      }
      if (rlen < HEADER) this.fail(w.offset, `ERF record length ${rlen} is shorter than its header`);
      if (w.end - p < rlen) {
        if (!w.need(rlen)) return this.outOfInput(rlen, "ERF record", false);
        view = w.view;
        p = w.pos;
      }
      const linkType = erfLinkType(type);
      if (linkType < 0) {
        this.info.skippedRecords++;
        w.consume(rlen);
        continue;
      }
      let at = HEADER;
      if (typeByte & 0x80) {
        let more = true;
        while (more) {
          if (at + 8 > rlen) this.fail(w.offset, "ERF extension headers run past the record length");
          more = (view.getUint8(p + at) & 0x80) !== 0;
          at += 8;
        }
      }
      if (linkType === LINKTYPE_ETHERNET) at += 2;
      if (at > rlen) this.fail(w.offset, `ERF record length ${rlen} is shorter than its headers`);
      const wlen = view.getUint16(p + 14, false);
      const port = view.getUint8(p + 9) & 3;
      const rec = this.rec;
      this.timestamp(view.getUint32(p + 4, true), view.getUint32(p, true));
      rec.originalLength = wlen;
      rec.linkType = linkType;
      rec.interfaceIndex = port;
      rec.fileOffset = w.base + p;
      rec.index = this.packetCount++;
      rec.setBytes(w.buf, p + at, Math.min(rlen - at, wlen));
      if (!this.seenPorts[port]) this.addInterface(port, linkType);
      w.consume(rlen);
      return rec;
    }
  }

  /** 32.32 binary fixed point to nanoseconds, rounded to nearest as Wireshark does, in exact integer steps. */
  private timestamp(seconds: number, fraction: number): void {
    const high = Math.floor(fraction / 65536) * 1e9;
    const low = (fraction & 0xffff) * 1e9 + 2147483648;
    let ns = Math.floor((high + Math.floor(low / 65536)) / 65536);
    let sec = seconds;
    if (ns >= 1e9) {
      ns -= 1e9;
      sec += 1;
    }
    this.rec.tsSec = sec;
    this.rec.tsNsec = ns;
  }

  private addInterface(port: number, linkType: number): void {
    this.seenPorts[port] = true;
    const name = `port ${"ABCD"[port]}`;
    const interfaces = this.info.interfaces;
    const at = interfaces.findIndex((i) => i.index > port);
    interfaces.splice(at < 0 ? interfaces.length : at, 0, {
      index: port,
      section: 0,
      linkType,
      snaplen: 0,
      unitsPerSecond: 4294967296,
      tsOffsetSeconds: 0,
      name,
    });
  }
}
