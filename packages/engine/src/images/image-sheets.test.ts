// Rows placed out of order land in the right image and pixel row; images and manifest lines come out in order.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import { ImageSheets } from "./image-sheets.js";
import type { ZipWriter } from "./zip-writer.js";

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for the zip that keeps each image's name and first pixel column (one byte per row). */
function recordingZip(images: { name: string; column: number[] }[]): ZipWriter {
  return {
    addParts(name: string, parts: readonly Uint8Array[]) {
      const png = PNG.sync.read(Buffer.concat(parts), { skipRescale: true });
      const column = Array.from({ length: png.height }, (_, y) => png.data[4 * y * png.width]);
      images.push({ name, column });
    },
  } as unknown as ZipWriter;
}

const rowOf = (value: number) => new Uint8Array(280).fill(value);

describe("ImageSheets", () => {
  it("places rows that arrive out of order, reuses buffers, and pads the last image with zero rows", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sheets-"));
    const manifest = path.join(dir, "manifest.csv");
    const images: { name: string; column: number[] }[] = [];
    const sheets = new ImageSheets(recordingZip(images), 2, manifest, ["label"]);
    // Rows 0-6 (values 10-16) out of order: image 3 (rows 4, 5) completes before image 2 (rows 2, 3), and image 4
    // reuses the buffer of image 3, so its padding row must be cleared.
    for (const seq of [1, 4, 5, 0, 3, 2, 6]) {
      sheets.add(seq, rowOf(10 + seq), String(seq % 2));
      if (seq === 0) expect(images.map((image) => image.name)).toEqual(["images/image-000001.png"]);
    }
    expect(images).toHaveLength(3);
    expect(sheets.finish()).toEqual({ images: 4, rows: 7 });
    expect(images).toEqual([
      { name: "images/image-000001.png", column: [10, 11] },
      { name: "images/image-000002.png", column: [12, 13] },
      { name: "images/image-000003.png", column: [14, 15] },
      { name: "images/image-000004.png", column: [16, 0] },
    ]);
    expect(fs.readFileSync(manifest, "utf8").split("\n").slice(0, 3)).toEqual([
      "image,row,csv_row,label",
      "images/image-000001.png,0,1,0",
      "images/image-000001.png,1,2,1",
    ]);
    expect(fs.readFileSync(manifest, "utf8").trimEnd().split("\n").at(-1)).toBe("images/image-000004.png,0,7,0");
  });
});
