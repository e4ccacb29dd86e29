// The zip and PNG writers: lossless grayscale pixels; the first entry written in place after its Zip64 local header,
// the others after it, with correct CRC-32s, read back by yauzl, unzip and zipinfo; Zip64 end records past 65 535
// entries; temporary files renamed only when complete, removed when discarded.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import { readZipEntries as readZip } from "../../../../test/helpers/read-zip.js";
import { GrayscalePngEncoder, scanlineOffset, scanlinesLength } from "../images/grayscale-png.js";
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
  /** A zip being made in a fresh directory: `target`, with its tail in the same directory. */
  function writer(lead = "features.csv"): { target: string; zip: ZipWriter } {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
    const target = path.join(dir, "images.zip");
    return { target, zip: new ZipWriter(target, lead, path.join(dir, "tail.zip")) };
  }

  it("holds the lead written in place, then the parts, then the files, with their CRC-32s, once finished", async () => {
    const { target, zip } = writer();
    const text = "a,b\n".concat("1,2\n".repeat(400_000)); // 1.6 MB: more than one write buffer
    for (let at = 0; at < text.length; at += 1000) zip.lead.write(Buffer.from(text.slice(at, at + 1000)));
    const parts = [Buffer.from([1, 2]), Buffer.from([3])];
    zip.addParts("images/image-000001.png", parts, zlib.crc32(Buffer.from([1, 2, 3])));
    zip.addParts("images/image-000002.png", [Buffer.alloc(3 << 20, 9)], zlib.crc32(Buffer.alloc(3 << 20, 9)));
    const manifest = path.join(dir, "manifest.csv");
    fs.writeFileSync(manifest, "image,row\n");
    zip.addFile(manifest, "manifest.csv", zlib.crc32("image,row\n"), 10);
    expect(fs.existsSync(target)).toBe(false);
    await zip.finish();
    // The tail and the file moved in are gone.
    expect(fs.readdirSync(dir)).toEqual(["images.zip"]);
    const { entries } = await readZip(target);
    expect(entries.map((e) => e.name)).toEqual([
      "features.csv",
      "images/image-000001.png",
      "images/image-000002.png",
      "manifest.csv",
    ]);
    expect(entries[0].data.toString()).toBe(text);
    expect(Array.from(entries[1].data)).toEqual([1, 2, 3]);
    expect(entries[2].data.equals(Buffer.alloc(3 << 20, 9))).toBe(true);
    expect(entries[3].data.toString()).toBe("image,row\n");
    for (const entry of entries) expect(entry.crc).toBe(zlib.crc32(entry.data));
    // The lead's local header has its sizes in the Zip64 extra field, 0xFFFFFFFF in the 32-bit fields.
    const bytes = fs.readFileSync(target);
    expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
    expect([bytes.readUInt16LE(4), bytes.readUInt32LE(18), bytes.readUInt32LE(22)]).toEqual([
      45, 0xffffffff, 0xffffffff,
    ]);
    expect([bytes.readUInt16LE(26), bytes.readUInt16LE(28), bytes.readUInt16LE(42), bytes.readUInt16LE(44)]).toEqual([
      12, 20, 0x0001, 16,
    ]);
    expect([Number(bytes.readBigUInt64LE(46)), Number(bytes.readBigUInt64LE(54))]).toEqual([text.length, text.length]);
    expect(bytes.subarray(62, 62 + text.length).toString()).toBe(text);
    // Info-ZIP reads the same: every CRC checks out, and zipinfo lists the sizes from the central directory.
    expect(execFileSync("unzip", ["-t", target], { encoding: "utf8" })).toContain("No errors detected");
    const unpacked = execFileSync("unzip", ["-p", target, "features.csv"], { maxBuffer: 4 << 20 });
    expect(unpacked.toString()).toBe(text);
    const listing = execFileSync("zipinfo", [target], { encoding: "utf8" });
    expect(listing).toMatch(new RegExp(`${text.length} b- stor .* features\\.csv`));
    expect(listing).toMatch(/4 files, /);
  });

  it("writes an empty lead and Zip64 end records past 65 535 entries", async () => {
    const { target, zip } = writer("empty.csv");
    const count = 65_540;
    for (let i = 1; i < count; i++) {
      const data = Buffer.from([i & 255, i >> 8]);
      zip.addParts(`${i}`, [data], zlib.crc32(data));
    }
    await zip.finish();
    const bytes = fs.readFileSync(target);
    expect(bytes.readUInt16LE(bytes.length - 22 + 10)).toBe(0xffff);
    // yauzl finds the count in the Zip64 record (listing all entries through it takes seconds: the first few do).
    const { count: listed, entries } = await readZip(target, 3);
    expect(listed).toBe(count);
    expect(entries.map((entry) => [entry.name, ...entry.data])).toEqual([["empty.csv"], ["1", 1, 0], ["2", 2, 0]]);
    // The last central record (name "65539") ends right where the Zip64 end record starts.
    const zip64End = bytes.length - 22 - 20 - 56;
    expect(bytes.readUInt32LE(zip64End)).toBe(0x06064b50);
    expect(Number(bytes.readBigUInt64LE(zip64End + 32))).toBe(count);
    expect(bytes.subarray(zip64End - 5, zip64End).toString()).toBe("65539");
  });

  it("removes the zip's and the tail's temporary files when discarded, before or during finishing", async () => {
    const { target, zip } = writer();
    zip.lead.write(Buffer.alloc(3 << 20, 65));
    zip.addParts("x.png", [Buffer.alloc(3 << 20, 1)], zlib.crc32(Buffer.alloc(3 << 20, 1)));
    expect(fs.readdirSync(dir).sort()).toEqual(["images.zip.partial", "tail.zip.partial"]);
    await zip.discard();
    expect(fs.readdirSync(dir)).toEqual([]);
    // A file whose size is not the one given fails the finish after the tail is appended; discard cleans up.
    const failing = new ZipWriter(target, "features.csv", path.join(dir, "tail.zip"));
    failing.addParts("x.png", [Buffer.from([1])], zlib.crc32(Buffer.from([1])));
    fs.writeFileSync(path.join(dir, "manifest.csv"), "abc");
    failing.addFile(path.join(dir, "manifest.csv"), "manifest.csv", zlib.crc32("abc"), 4);
    await expect(failing.finish()).rejects.toThrow(/3 bytes, 4 expected/);
    await failing.discard();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
