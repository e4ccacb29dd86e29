// Rows placed in order and completed out of order land in the right image and pixel row; images and manifest lines
// come out in order, each image the encoder's PNG of its rows with its CRC-32.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createDecodedPacket, IMAGE_ROW_BYTES, ImageRows } from "@tracemill/core";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ZipWriter } from "../output/index.js";
import { GrayscalePngEncoder, scanlineOffset, scanlinesLength } from "./grayscale-png.js";
import { ImageSheets } from "./image-sheets.js";

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for the zip that keeps each image's name, first pixel column (one byte per row) and sum of pixels. */
function recordingZip(images: Recorded[]): ZipWriter {
  return {
    addParts(name: string, parts: readonly Uint8Array[]) {
      const png = PNG.sync.read(Buffer.concat(parts), { skipRescale: true });
      const column = Array.from({ length: png.height }, (_, y) => png.data[4 * y * png.width]);
      let sum = 0;
      for (let i = 0; i < png.data.length; i += 4) sum += png.data[i];
      images.push({ name, column, sum });
    },
  } as unknown as ZipWriter;
}

/** A stand-in for the zip that keeps each entry's name, bytes and CRC-32, in order. */
function bytesZip(entries: { name: string; bytes: Buffer; crc: number }[]): ZipWriter {
  return {
    addParts(name: string, parts: readonly Uint8Array[], crc: number) {
      entries.push({ name, bytes: Buffer.concat(parts), crc });
    },
  } as unknown as ZipWriter;
}

interface Recorded {
  name: string;
  column: number[];
  sum: number;
}

/** Appends `bytes` as one packet to slot `slot`'s row, as the pass does (no IP version: nothing zeroed). */
function put(rows: ImageRows, slot: number, bytes: Uint8Array): boolean {
  const packet = { ...createDecodedPacket(), ipOffset: 0, ipLength: bytes.length, transportOffset: -1 };
  return rows.append(slot, bytes, 0, bytes.length, packet, false);
}

/** Fills the first `bytes` bytes of slot `slot`'s row with `value`. */
function fill(rows: ImageRows, slot: number, value: number, bytes: number): void {
  put(rows, slot, new Uint8Array(bytes).fill(value));
}

describe("ImageSheets", () => {
  it("places rows in order, takes them final out of order, clears reused buffers, pads the last image", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sheets-"));
    const manifest = path.join(dir, "manifest.csv");
    const images: Recorded[] = [];
    const sheets = new ImageSheets(recordingZip(images), 2, manifest, ["label"]);
    // Slot k holds row k, except row 8, which reuses slot 0.
    const rows = new ImageRows();
    for (let seq = 0; seq < 6; seq++) {
      sheets.place(rows, seq, seq);
      fill(rows, seq, 10 + seq, 280);
    }
    // Rows 0-5 final out of order: image 3 (rows 4, 5) before image 2 (rows 2, 3).
    for (const seq of [1, 4, 5, 0, 3, 2]) {
      sheets.final(seq, seq);
      if (seq === 0) expect(images.map((image) => image.name)).toEqual(["images/image-000001.png"]);
    }
    expect(images).toHaveLength(3);
    // Labels come apart from the pixels: image 1's lines wait for row 0's label, which comes last.
    for (const seq of [1, 2, 3, 4, 5, 0]) {
      sheets.labels(seq, new TextEncoder().encode(String(seq % 2)));
      if (seq === 5) expect(fs.readFileSync(manifest, "utf8")).toBe("image,row,csv_row,label\n");
    }
    // Rows 6 and 7 are drawn in the buffer of the images before, still holding their bytes: row 6 takes 100 bytes
    // (the other 180 must read 0), row 7 none; image 5 (row 8) has its padding row cleared.
    sheets.place(rows, 6, 6);
    fill(rows, 6, 16, 100);
    sheets.place(rows, 7, 7);
    for (const seq of [6, 7]) {
      expect(rows.end(seq)).toBe(true);
      sheets.final(seq, seq);
    }
    sheets.labels(6, new TextEncoder().encode("0"));
    sheets.labels(7, new TextEncoder().encode("1"));
    sheets.place(rows, 0, 8);
    expect(rows.end(0)).toBe(true);
    sheets.final(8, 0);
    sheets.labels(8, new TextEncoder().encode("0"));
    expect(sheets.finish()).toEqual({ images: 5, rows: 9 });
    expect(images).toEqual([
      { name: "images/image-000001.png", column: [10, 11], sum: 280 * 21 },
      { name: "images/image-000002.png", column: [12, 13], sum: 280 * 25 },
      { name: "images/image-000003.png", column: [14, 15], sum: 280 * 29 },
      { name: "images/image-000004.png", column: [16, 0], sum: 100 * 16 },
      { name: "images/image-000005.png", column: [0, 0], sum: 0 },
    ]);
    expect(fs.readFileSync(manifest, "utf8").split("\n").slice(0, 3)).toEqual([
      "image,row,csv_row,label",
      "images/image-000001.png,0,1,0",
      "images/image-000001.png,1,2,1",
    ]);
    expect(fs.readFileSync(manifest, "utf8").trimEnd().split("\n").slice(-3)).toEqual([
      "images/image-000004.png,0,7,0",
      "images/image-000004.png,1,8,1",
      "images/image-000005.png,0,9,0",
    ]);
    // The manifest's zip entry takes its CRC-32 and size from the writing, not from reading the file back.
    const written = fs.readFileSync(manifest);
    expect([sheets.manifestCrc, sheets.manifestSize]).toEqual([zlib.crc32(written), written.length]);
  });

  it("writes images waiting for an earlier one in order, each the encoder's PNG of its rows, with its CRC-32", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sheets-"));
    const entries: { name: string; bytes: Buffer; crc: number }[] = [];
    const manifest = path.join(dir, "manifest.csv");
    const sheets = new ImageSheets(bytesZip(entries), 3, manifest, []);
    const rows = new ImageRows();
    const pixels = (seq: number) => Uint8Array.from({ length: 280 }, (_, x) => (seq * 7 + x * (seq % 5)) % 256);
    for (let seq = 0; seq < 200; seq++) {
      sheets.place(rows, seq, seq);
      expect(put(rows, seq, pixels(seq))).toBe(true);
    }
    // Row 0 is final last: every later image waits for the first one, complete and encoded.
    for (let seq = 1; seq < 200; seq++) {
      sheets.final(seq, seq);
      expect(entries).toHaveLength(0);
    }
    sheets.final(0, 0);
    expect(entries).toHaveLength(66);
    expect(sheets.finish()).toEqual({ images: 67, rows: 200 });
    // The expected PNGs from scanlines built here (the last image's third row is padding), by a fresh encoder.
    const encoder = new GrayscalePngEncoder(IMAGE_ROW_BYTES, 3);
    for (let image = 0; image < 67; image++) {
      const scanlines = new Uint8Array(scanlinesLength(IMAGE_ROW_BYTES, 3));
      for (let y = 0; y < 3 && image * 3 + y < 200; y++) {
        scanlines.set(pixels(image * 3 + y), scanlineOffset(IMAGE_ROW_BYTES, y));
      }
      const png = encoder.encode(scanlines);
      const entry = entries[image];
      expect(entry.name).toBe(`images/image-${String(image + 1).padStart(6, "0")}.png`);
      expect(entry.bytes.equals(Buffer.concat(png.parts))).toBe(true);
      expect(entry.crc).toBe(png.crc);
      expect(entry.crc).toBe(zlib.crc32(entry.bytes));
    }
    const lines = fs.readFileSync(manifest, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(201);
    expect(lines[199]).toBe("images/image-000067.png,0,199");
    expect(lines[200]).toBe("images/image-000067.png,1,200");
    const written = fs.readFileSync(manifest);
    expect([sheets.manifestCrc, sheets.manifestSize]).toEqual([zlib.crc32(written), written.length]);
    // The pixels really went through: the last image's padding row is zero, its second row is row 199's bytes.
    const last = PNG.sync.read(entries[66].bytes, { skipRescale: true });
    expect(last.data[4 * 280]).toBe((199 * 7) % 256);
    expect(last.data[4 * 281]).toBe((199 * 7 + (199 % 5)) % 256);
    expect(last.data[4 * 2 * 280 + 4 * 5]).toBe(0);
  });

  it("keeps a waiting row in a block about its size and frees it once its image is drawn", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sheets-"));
    const sheets = new ImageSheets(bytesZip([]), 32, path.join(dir, "manifest.csv"), []);
    const rows = new ImageRows();
    // Row 0 stays open until the end, so every image waits; 20 000 rows of 40 bytes each take a 48-byte block.
    sheets.place(rows, 0, 0);
    for (let seq = 1; seq <= 20_000; seq++) {
      sheets.place(rows, seq, seq);
      fill(rows, seq, 1, 40);
      rows.end(seq);
      sheets.final(seq, seq);
    }
    // Images 2 on were drawn and encoded as they completed, their rows' blocks freed and taken again: one chunk of
    // 4096 blocks of 48 bytes served all 20 000 rows.
    expect(rows.blocks.allocatedBytes).toBe(4096 * 48);
    rows.end(0);
    sheets.final(0, 0);
    expect(sheets.finish()).toEqual({ images: 626, rows: 20_001 });
  });

  it("closes the manifest once, whether discarded mid-run, twice, or after finishing", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sheets-"));
    const close = vi.spyOn(fs, "closeSync");
    try {
      const rows = new ImageRows();
      const discarded = new ImageSheets(bytesZip([]), 1, path.join(dir, "discarded.csv"), []);
      discarded.place(rows, 0, 0);
      discarded.discard();
      discarded.discard();
      expect(close).toHaveBeenCalledTimes(1);
      const finished = new ImageSheets(bytesZip([]), 1, path.join(dir, "finished.csv"), []);
      finished.place(rows, 0, 0);
      finished.final(0, 0);
      expect(finished.finish()).toEqual({ images: 1, rows: 1 });
      finished.discard();
      expect(close).toHaveBeenCalledTimes(2);
    } finally {
      close.mockRestore();
    }
  });

  it("fails as OUTPUT_FAILED, with the system's reason, when the manifest cannot be written", () => {
    expect(() => new ImageSheets(bytesZip([]), 1, "/dev/full", [])).toThrow(
      expect.objectContaining({
        code: "OUTPUT_FAILED",
        message: expect.stringMatching(/manifest\.csv: could not be written \(ENOSPC/),
      }),
    );
    expect(() => new ImageSheets(bytesZip([]), 1, "/nonexistent-dir/manifest.csv", [])).toThrow(
      expect.objectContaining({
        code: "OUTPUT_FAILED",
        message: expect.stringMatching(/could not be created \(ENOENT/),
      }),
    );
  });
});
