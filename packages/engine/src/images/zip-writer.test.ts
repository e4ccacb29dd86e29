// The zip and PNG writers: lossless grayscale pixels; entries in order with correct CRC-32s, read back by yauzl;
// Zip64 end records past 65 535 entries; temporary file renamed only when complete.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import { readZipEntries as readZip } from "../../../../test/helpers/read-zip.js";
import { GrayscalePngEncoder, scanlineOffset, scanlinesLength } from "./grayscale-png.js";
import { ZipWriter } from "./zip-writer.js";

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("GrayscalePngEncoder", () => {
  it("round-trips every byte value exactly as 8-bit grayscale, with the CRC-32 of the whole file", () => {
    const encoder = new GrayscalePngEncoder(280, 3);
    const scanlines = new Uint8Array(scanlinesLength(280, 3));
    const pixels = Uint8Array.from({ length: 3 * 280 }, (_, i) => (i * 7) % 256);
    for (let y = 0; y < 3; y++) scanlines.set(pixels.subarray(y * 280, (y + 1) * 280), scanlineOffset(280, y));
    const encoded = encoder.encode(scanlines);
    const file = Buffer.concat(encoded.parts);
    expect(encoded.crc).toBe(zlib.crc32(file));
    const png = PNG.sync.read(file, { skipRescale: true });
    expect(png.width).toBe(280);
    expect(png.height).toBe(3);
    // pngjs decodes to RGBA: every channel holds the gray byte, alpha is opaque.
    for (let i = 0; i < pixels.length; i++) {
      expect(png.data[4 * i]).toBe(pixels[i]);
      expect(png.data[4 * i + 3]).toBe(255);
    }
    expect(png.data[4 * 281 + 1]).toBe(pixels[281]);
  });
});

describe("ZipWriter", () => {
  it("holds the parts and files in the order added, with their CRC-32s, and appears only when finished", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
    const csv = path.join(dir, "features.csv");
    const text = "a,b\n".concat("1,2\n".repeat(400_000)); // 1.6 MB: more than one copy chunk
    fs.writeFileSync(csv, text);
    fs.writeFileSync(path.join(dir, "empty.csv"), "");
    const target = path.join(dir, "images.zip");
    const zip = new ZipWriter(target);
    const parts = [Buffer.from([1, 2]), Buffer.from([3])];
    zip.addParts("images/image-000001.png", parts, zlib.crc32(Buffer.from([1, 2, 3])));
    zip.addFile(csv, "features.csv");
    zip.addFile(path.join(dir, "empty.csv"), "empty.csv");
    expect(fs.existsSync(target)).toBe(false);
    await zip.finish();
    expect(fs.readdirSync(dir).sort()).toEqual(["empty.csv", "features.csv", "images.zip"]);
    const { entries } = await readZip(target);
    expect(entries.map((e) => e.name)).toEqual(["images/image-000001.png", "features.csv", "empty.csv"]);
    expect(Array.from(entries[0].data)).toEqual([1, 2, 3]);
    expect(entries[1].data.toString()).toBe(text);
    expect(entries[2].data.length).toBe(0);
    for (const entry of entries) expect(entry.crc).toBe(zlib.crc32(entry.data));
  });

  it("writes Zip64 end records past 65 535 entries", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
    const target = path.join(dir, "many.zip");
    const zip = new ZipWriter(target);
    const count = 65_540;
    for (let i = 0; i < count; i++) {
      const data = Buffer.from([i & 255, i >> 8]);
      zip.addParts(`${i}`, [data], zlib.crc32(data));
    }
    await zip.finish();
    const bytes = fs.readFileSync(target);
    expect(bytes.readUInt16LE(bytes.length - 22 + 10)).toBe(0xffff);
    // yauzl finds the count in the Zip64 record (listing all entries through it takes seconds: the first few do).
    const { count: listed, entries } = await readZip(target, 3);
    expect(listed).toBe(count);
    expect(entries.map((entry) => [entry.name, ...entry.data])).toEqual([
      ["0", 0, 0],
      ["1", 1, 0],
      ["2", 2, 0],
    ]);
    // The last central record (name "65539") ends right where the Zip64 end record starts.
    const zip64End = bytes.length - 22 - 20 - 56;
    expect(bytes.readUInt32LE(zip64End)).toBe(0x06064b50);
    expect(Number(bytes.readBigUInt64LE(zip64End + 32))).toBe(count);
    expect(bytes.subarray(zip64End - 5, zip64End).toString()).toBe("65539");
  });

  it("removes its temporary file when discarded", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
    const zip = new ZipWriter(path.join(dir, "images.zip"));
    zip.addParts("x.png", [Buffer.from([1])], zlib.crc32(Buffer.from([1])));
    await zip.discard();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
