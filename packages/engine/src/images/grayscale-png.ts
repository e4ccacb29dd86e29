// Lossless 8-bit grayscale PNGs of a fixed size: one byte per pixel, exactly the bytes of the rows.
// Written directly (signature, IHDR, one IDAT, IEND; PNG spec §5, §11.2) rather than through pngjs: for images of a
// few kilobytes, pngjs's per-image buffers and filter pass cost several times the compression itself, and images are
// made by the thousand. The scanlines are compressed by core's ScanlineDeflater, made for them (see there). pngjs
// still decodes the images in the tests, as an independent reader.
import zlib from "node:zlib";
import { ScanlineDeflater } from "@tracemill/core/outputs";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const GRAYSCALE = 0;
const IEND = chunk("IEND", Buffer.alloc(0));

/** A PNG in parts ready to be written one after the other, with the CRC-32 of the whole file (for the zip). */
export interface EncodedPng {
  parts: Uint8Array[];
  crc: number;
}

/** Bytes of `height` PNG scanlines of `width` pixels: each a filter-type byte, then the row. */
export function scanlinesLength(width: number, height: number): number {
  return height * (width + 1);
}

/** Where row `y`'s pixels start among scanlines of `width` pixels. */
export function scanlineOffset(width: number, y: number): number {
  return y * (width + 1) + 1;
}

/**
 * Encodes PNGs of one size from pixels laid out as PNG scanlines (see `scanlineOffset`), so rows are written in
 * place by the caller and deflated without another copy. Every filter byte must be 0 (None): packet bytes are not
 * smooth like photographs, and filtering would gain little.
 */
export class GrayscalePngEncoder {
  private readonly head: Buffer;
  private readonly headCrc: number;
  private readonly idatHead = Buffer.alloc(8);
  private readonly idatTail = Buffer.alloc(4);
  private readonly idatTypeCrc = zlib.crc32("IDAT");
  private readonly deflater: ScanlineDeflater;
  /** The one result handed out, refilled by every call (thousands of images: no objects or buffers per image). */
  private readonly png: EncodedPng;

  constructor(width: number, height: number) {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header[8] = 8; // bits per sample
    header[9] = GRAYSCALE;
    // compression method 0, filter method 0, no interlace: bytes 10-12 stay 0.
    this.head = Buffer.concat([SIGNATURE, chunk("IHDR", header)]);
    this.headCrc = zlib.crc32(this.head);
    this.idatHead.write("IDAT", 4, "latin1");
    this.png = { parts: [this.head, this.idatHead, IEND, this.idatTail, IEND], crc: 0 };
    this.deflater = new ScanlineDeflater(width + 1);
  }

  /** The PNG of `scanlines`, valid until the next call: its parts are reused (write or copy them before). */
  encode(scanlines: Uint8Array): EncodedPng {
    const data = this.deflater.deflate(scanlines);
    const idatHead = this.idatHead;
    const idatTail = this.idatTail;
    idatHead.writeUInt32BE(data.length, 0);
    idatTail.writeUInt32BE(zlib.crc32(data, this.idatTypeCrc), 0);
    let crc = zlib.crc32(idatHead, this.headCrc);
    crc = zlib.crc32(data, crc);
    crc = zlib.crc32(idatTail, crc);
    const png = this.png;
    png.parts[2] = data;
    png.crc = zlib.crc32(IEND, crc);
    return png;
  }
}

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
