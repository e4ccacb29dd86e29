// Lossless 8-bit grayscale PNGs of a fixed size: one byte per pixel, exactly the bytes of the rows.
// Written directly (signature, IHDR, one IDAT, IEND; PNG spec §5, §11.2) rather than through pngjs: for images of a
// few kilobytes, pngjs's per-image buffers and filter pass cost several times the compression itself, and images are
// made by the thousand. pngjs still decodes them in the tests, as an independent reader.
import zlib from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const GRAYSCALE = 0;
/**
 * Level 1: within a few percent of level 6 in size on packet bytes, at half the time. memLevel 5 (a 4096-entry hash
 * table instead of 32 768): zlib clears and fills its tables for every image, and on images of a few to a hundred
 * kilobytes that set-up costs more than the smaller table loses (sizes within 1 %, a third less time at n = 32).
 */
const DEFLATE = { level: 1, memLevel: 5 } as const;

/** A PNG in parts ready to be written one after the other, with the CRC-32 of the whole file (for the zip). */
export interface EncodedPng {
  parts: Uint8Array[];
  crc: number;
}

/**
 * The pixels of one image laid out as PNG scanlines (a filter byte, then the row), so rows are written in place and
 * the image is deflated without another copy. Every row has filter type 0 (None): packet bytes are not smooth like
 * photographs, and filtering would gain little. The buffer is reused from image to image.
 */
export class GrayscaleSheet {
  /** Scanlines: row y's pixels are at `lineOffset(y)` … + width; each line's first byte (filter None) stays 0. */
  readonly scanlines: Uint8Array;
  private readonly head: Buffer;
  private readonly headCrc: number;
  private static readonly IEND = chunk("IEND", Buffer.alloc(0));

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.scanlines = new Uint8Array(height * (width + 1));
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header[8] = 8; // bits per sample
    header[9] = GRAYSCALE;
    // compression method 0, filter method 0, no interlace: bytes 10-12 stay 0.
    this.head = Buffer.concat([SIGNATURE, chunk("IHDR", header)]);
    this.headCrc = zlib.crc32(this.head);
  }

  /** Where row `y`'s pixels start in `scanlines`. */
  lineOffset(y: number): number {
    return y * (this.width + 1) + 1;
  }

  /** Zeroes rows `from` … height − 1 (the padding of a last, partly filled image). */
  clearFrom(from: number): void {
    this.scanlines.fill(0, from * (this.width + 1));
  }

  /** The PNG of the current pixels. Synchronous on purpose: handing images of a few kilobytes to the thread pool costs more than compressing them here. */
  encode(): EncodedPng {
    const data = zlib.deflateSync(this.scanlines, DEFLATE);
    const idatHead = Buffer.alloc(8);
    idatHead.writeUInt32BE(data.length, 0);
    idatHead.write("IDAT", 4, "latin1");
    const idatTail = Buffer.alloc(4);
    idatTail.writeUInt32BE(zlib.crc32(data, zlib.crc32(idatHead.subarray(4))), 0);
    let crc = zlib.crc32(idatHead, this.headCrc);
    crc = zlib.crc32(data, crc);
    crc = zlib.crc32(idatTail, crc);
    crc = zlib.crc32(GrayscaleSheet.IEND, crc);
    return { parts: [this.head, idatHead, data, idatTail, GrayscaleSheet.IEND], crc };
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
