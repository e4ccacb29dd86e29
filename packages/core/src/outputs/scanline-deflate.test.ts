// The scanline deflater against zlib's inflater (which also checks the Adler-32): every input comes back exactly,
// whatever its runs, row repeats and lengths, and image-like input compresses well.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { ScanlineDeflater } from "./scanline-deflate.js";

const STRIDE = 281;

/** A seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Image-like scanlines: each row a filter byte 0, some packet-like bytes (often copied from the row above), zeros. */
function imageLike(rows: number, next: () => number): Uint8Array {
  const bytes = new Uint8Array(rows * STRIDE);
  for (let y = 0; y < rows; y++) {
    const used = Math.floor(next() * 281);
    for (let x = 1; x < used; x++) {
      const at = y * STRIDE + x;
      const r = next();
      bytes[at] = y > 0 && r < 0.5 ? bytes[at - STRIDE] : r < 0.6 ? 0 : Math.floor(next() * 256);
    }
  }
  return bytes;
}

function roundTrip(deflater: ScanlineDeflater, input: Uint8Array): Uint8Array {
  const out = deflater.deflate(input);
  expect(Buffer.from(zlib.inflateSync(out)).equals(Buffer.from(input))).toBe(true);
  return out;
}

describe("ScanlineDeflater", () => {
  it("makes complete zlib streams of empty and one-byte inputs", () => {
    const deflater = new ScanlineDeflater(STRIDE);
    expect(Array.from(roundTrip(deflater, new Uint8Array(0)))).toEqual([0x78, 0x01, 0x03, 0x00, 0, 0, 0, 1]);
    for (const v of [0, 1, 143, 144, 255]) roundTrip(deflater, Uint8Array.of(v));
  });

  it("codes every run length of zeros, at the start and after a byte, across the 258-byte match limit", () => {
    const deflater = new ScanlineDeflater(STRIDE);
    for (let run = 1; run <= 3 * 258 + 4; run++) {
      roundTrip(deflater, new Uint8Array(run));
      const after = new Uint8Array(run + 2);
      after[0] = 7;
      after[run + 1] = 9;
      roundTrip(deflater, after);
    }
  });

  it("codes every match length against the row above, and rows above a window's width apart", () => {
    const next = random(1);
    for (const stride of [1, 2, 3, 281, 32768, 40000]) {
      const deflater = new ScanlineDeflater(stride);
      for (const length of [1, 2, 3, 4, 10, 11, 130, 257, 258, 259, 600]) {
        const bytes = new Uint8Array(stride + length + 3);
        for (let i = 0; i < stride; i++) bytes[i] = 1 + Math.floor(next() * 255);
        // The second row repeats the first for `length` bytes (as far as the first row reaches), then differs.
        for (let i = 0; i < length && stride + i < bytes.length; i++) bytes[stride + i] = bytes[i % stride];
        roundTrip(deflater, bytes);
      }
    }
  });

  it("round-trips random bytes of every value, and random image-like scanlines of many heights", () => {
    const next = random(2);
    const deflater = new ScanlineDeflater(STRIDE);
    for (let i = 0; i < 50; i++) {
      const bytes = new Uint8Array(Math.floor(next() * 5000));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(next() * 256);
      roundTrip(deflater, bytes);
    }
    for (let rows = 1; rows <= 300; rows += 7) roundTrip(deflater, imageLike(rows, next));
  });

  it("round-trips views starting at every offset within a word, with zero runs around word boundaries", () => {
    const next = random(4);
    const deflater = new ScanlineDeflater(STRIDE);
    const whole = imageLike(40, next);
    for (let skew = 0; skew < 8; skew++) {
      for (const length of [0, 1, 2, 3, 4, 5, 7, 8, 9, 3000, whole.length - skew]) {
        roundTrip(deflater, whole.subarray(skew, skew + length));
      }
      for (let zeros = 1; zeros <= 20; zeros++) {
        const bytes = new Uint8Array(skew + zeros + 2);
        bytes[skew] = 5;
        bytes[skew + zeros + 1] = 6;
        roundTrip(deflater, bytes.subarray(skew));
        roundTrip(deflater, bytes.subarray(skew + 1));
      }
    }
  });

  it("keeps the Adler-32 exact over long inputs (64 MiB of mostly zeros and large bytes)", () => {
    const bytes = new Uint8Array(64 << 20);
    for (let i = 0; i < bytes.length; i += 4099) bytes[i] = 255;
    bytes.fill(255, 1000, 300_000);
    roundTrip(new ScanlineDeflater(STRIDE), bytes);
  });

  it("compresses image-like rows to well under a tenth of their size, and the reused buffer holds the last result", () => {
    const deflater = new ScanlineDeflater(STRIDE);
    const next = random(3);
    const rows = new Uint8Array(32 * STRIDE);
    for (let y = 0; y < 32; y++) {
      // A 40-byte header with two changing fields, the same in every row otherwise.
      for (let x = 1; x <= 40; x++) rows[y * STRIDE + x] = x * 3;
      rows[y * STRIDE + 5] = y;
      rows[y * STRIDE + 25] = Math.floor(next() * 256);
    }
    const out = roundTrip(deflater, rows);
    expect(out.length).toBeLessThan(rows.length / 10);
    const first = Buffer.from(out);
    roundTrip(deflater, new Uint8Array(100).fill(3));
    expect(Buffer.from(deflater.deflate(rows)).equals(first)).toBe(true);
  });

  it("refuses a stride that is not a positive integer", () => {
    expect(() => new ScanlineDeflater(0)).toThrow(RangeError);
    expect(() => new ScanlineDeflater(1.5)).toThrow(RangeError);
  });
});
