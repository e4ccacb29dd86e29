// The zip and PNG writers: lossless grayscale pixels, entries in order, temporary file renamed only when complete.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { encodeGrayscalePng } from "./grayscale-png.js";
import { ImagesZip } from "./images-zip.js";

/** Every entry of a zip file: name and uncompressed bytes, in the order of the central directory. */
async function readZip(file: string): Promise<{ name: string; data: Buffer }[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries: { name: string; data: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
          zip.readEntry();
        });
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("encodeGrayscalePng", () => {
  it("round-trips every byte value exactly as 8-bit grayscale", () => {
    const pixels = new Uint8Array(3 * 280);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7) % 256;
    const png = PNG.sync.read(encodeGrayscalePng(pixels, 280, 3), { skipRescale: true });
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

describe("ImagesZip", () => {
  it("holds the images and files in the order added, and appears only when finished", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
    const csv = path.join(dir, "features.csv");
    fs.writeFileSync(csv, "a,b\n1,2\n");
    const target = path.join(dir, "images.zip");
    const zip = new ImagesZip(target);
    zip.addImage("images/image-000001.png", Buffer.from([1, 2, 3]));
    zip.addFile(csv, "features.csv");
    expect(fs.existsSync(target)).toBe(false);
    await zip.finish();
    expect(fs.existsSync(`${target}.partial`)).toBe(false);
    const entries = await readZip(target);
    expect(entries.map((e) => e.name)).toEqual(["images/image-000001.png", "features.csv"]);
    expect(Array.from(entries[0].data)).toEqual([1, 2, 3]);
    expect(entries[1].data.toString()).toBe("a,b\n1,2\n");
  });

  it("lists every entry in order when there are more images than one set-aside batch", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
    const target = path.join(dir, "many.zip");
    const zip = new ImagesZip(target);
    for (let i = 0; i < 700; i++) {
      zip.addImage(`images/${i}.png`, Buffer.from([i & 255, i >> 8]));
      // Let the writes finish now and then, so that written entries are set aside along the way.
      if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await zip.finish();
    const entries = await readZip(target);
    expect(entries).toHaveLength(700);
    entries.forEach((entry, i) => {
      expect(entry.name).toBe(`images/${i}.png`);
      expect(Array.from(entry.data)).toEqual([i & 255, i >> 8]);
    });
  });

  it("removes its temporary file when discarded", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
    const target = path.join(dir, "images.zip");
    const zip = new ImagesZip(target);
    zip.addImage("x.png", Buffer.from([1]));
    await zip.discard();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
