// Lossless 8-bit grayscale PNG of rows × 280 pixels: one byte per pixel, exactly the bytes of the rows.
// Written directly (signature, IHDR, one IDAT, IEND; PNG spec §5, §11.2) rather than through pngjs: for images of a
// few kilobytes, pngjs's per-image buffers and filter pass cost several times the compression itself, and images are
// made by the thousand. pngjs still decodes them in the tests, as an independent reader.
import zlib from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const GRAYSCALE = 0;
const FILTER_NONE = 0;

/**
 * Encodes `pixels` (width × height bytes, row after row) as a grayscale PNG. Synchronous on purpose: for images of
 * a few kilobytes, handing each one to the thread pool (zlib.deflate) costs more than compressing it here.
 */
export function encodeGrayscalePng(pixels: Uint8Array, width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = GRAYSCALE;
  // compression method 0, filter method 0, no interlace: bytes 10-12 stay 0.
  // Each row gets filter type None: packet bytes are not smooth like photographs, and filtering would gain little.
  const raw = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = FILTER_NONE;
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  // Level 1: within a few percent of level 6 in size on these rows, at half the time.
  const data = zlib.deflateSync(raw, { level: 1 });
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", data), chunk("IEND", Buffer.alloc(0))]);
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
