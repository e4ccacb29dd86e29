// The deflate worker: the same bytes as zlib on this thread, answers in submission order, failures as typed errors.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { DEFLATE } from "./grayscale-png.js";
import { PngWorker } from "./png-worker.js";

/** `count` views of `size` bytes each, every one different, in one shared block. */
function sharedImages(count: number, size: number): Uint8Array[] {
  const block = new Uint8Array(new SharedArrayBuffer(count * size));
  for (let i = 0; i < block.length; i++) block[i] = (i * 31 + (i >> 9)) % 251;
  return Array.from({ length: count }, (_, i) => block.subarray(i * size, (i + 1) * size));
}

describe("PngWorker", () => {
  it("deflates into the same bytes as deflateSync here, in submission order, across batches", () => {
    const worker = new PngWorker();
    const images = sharedImages(40, 20_000);
    const got: [number, Buffer][] = [];
    try {
      for (const [i, image] of images.entries()) worker.submit(i, image);
      worker.drain(0, (image, data) => got.push([image, Buffer.from(data)]));
    } finally {
      worker.close();
    }
    expect(got.map(([image]) => image)).toEqual(images.map((_, i) => i));
    for (const [i, data] of got) expect(data.equals(zlib.deflateSync(images[i], DEFLATE))).toBe(true);
  });

  it("surfaces a failed deflate as a TOOL_FAILED error", () => {
    const worker = new PngWorker({ level: 99 });
    try {
      worker.submit(7, sharedImages(1, 100)[0]);
      expect(() => worker.drain(0, () => {})).toThrow(expect.objectContaining({ code: "TOOL_FAILED" }));
    } finally {
      worker.close();
    }
  });
});
