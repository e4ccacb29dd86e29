// Lossless 8-bit grayscale PNG of rows × 280 pixels: one byte per pixel, exactly the bytes of the rows.
import { PNG } from "pngjs";

const grayscale = { colorType: 0, inputColorType: 0, bitDepth: 8, inputHasAlpha: false } as const;

/** Encodes `pixels` (width × height bytes, row after row) as a grayscale PNG. */
export function encodeGrayscalePng(pixels: Uint8Array, width: number, height: number): Buffer {
  const png = new PNG();
  png.width = width;
  png.height = height;
  png.data = Buffer.from(pixels.buffer, pixels.byteOffset, width * height);
  // Packet bytes are not smooth like photographs: PNG's per-row adaptive filtering (trying all five filters on
  // every row) costs more time than anything else here and gains little, so rows go unfiltered.
  return PNG.sync.write(png, { ...grayscale, filterType: 0, deflateLevel: 6 });
}
