// ImageSheets and ImageRows against a plain model of a pass: sessions start in row order on reused record slots,
// rows become final when full (some exactly at 280 bytes) or when their session ends, sessions end in any order
// (some only at the capture's end), labels come when sessions end; every image's pixels and the manifest must match.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDecodedPacket, IMAGE_ROW_BYTES, ImageRows } from "@tracemill/core";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import type { ZipWriter } from "../output/index.js";
import { ImageSheets } from "./image-sheets.js";

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Live {
  seq: number;
  slot: number;
}

/** Runs `sessions` sessions through ImageSheets; returns the decoded images' rows, the manifest and the model rows. */
function simulate(seed: number, n: number, sessions: number, labelled: boolean) {
  const next = random(seed);
  const images: { name: string; rows: Uint8Array[] }[] = [];
  const zip = {
    addParts(name: string, parts: readonly Uint8Array[]) {
      const png = PNG.sync.read(Buffer.concat(parts), { skipRescale: true });
      expect(png.width).toBe(IMAGE_ROW_BYTES);
      expect(png.height).toBe(n);
      const rows = Array.from({ length: n }, (_, y) =>
        Uint8Array.from({ length: IMAGE_ROW_BYTES }, (_, x) => png.data[4 * (y * IMAGE_ROW_BYTES + x)]),
      );
      images.push({ name, rows });
    },
  } as unknown as ZipWriter;
  const manifestPath = path.join(dir, `manifest-${seed}-${n}-${labelled}.csv`);
  const sheets = new ImageSheets(zip, n, manifestPath, labelled ? ["label"] : []);
  const rows = new ImageRows();
  const expected: Uint8Array[] = [];
  const labels: string[] = [];
  const pool: number[] = [];
  let slots = 0;
  const live: Live[] = [];
  const packet = { ...createDecodedPacket(), ipOffset: 0, transportOffset: -1 };
  const end = (at: number) => {
    const session = live[at];
    live[at] = live[live.length - 1];
    live.pop();
    if (rows.end(session.slot)) sheets.final(session.seq, session.slot);
    if (labelled) sheets.labels(session.seq, new TextEncoder().encode(labels[session.seq]));
    pool.push(session.slot);
  };
  const append = (session: Live, length: number) => {
    const bytes = Uint8Array.from({ length }, () => 1 + Math.floor(next() * 255));
    const row = expected[session.seq];
    const filled = row.length;
    const grown = new Uint8Array(Math.min(IMAGE_ROW_BYTES, filled + length));
    grown.set(row);
    grown.set(bytes.subarray(0, grown.length - filled), filled);
    expected[session.seq] = grown;
    if (rows.filling[session.slot] !== 1) return;
    packet.ipLength = length;
    if (rows.append(session.slot, bytes, 0, length, packet, false)) sheets.final(session.seq, session.slot);
  };
  const lengths = [1, 40, 60, 140, 279, 280, 300];
  for (let seq = 0; seq < sessions; seq++) {
    const slot = pool.pop() ?? slots++;
    const session = { seq, slot };
    live.push(session);
    expected[seq] = new Uint8Array(0);
    labels[seq] = String(Math.floor(next() * 2));
    sheets.place(rows, slot, seq);
    append(session, lengths[Math.floor(next() * lengths.length)]);
    // A few packets to live sessions, then some sessions end; session 1 (and a few others) only at the end.
    for (let k = Math.floor(next() * 4); k > 0 && live.length > 0; k--) {
      append(live[Math.floor(next() * live.length)], lengths[Math.floor(next() * lengths.length)]);
    }
    for (let k = Math.floor(next() * 3); k > 0 && live.length > 0; k--) {
      const at = Math.floor(next() * live.length);
      if (live[at].seq !== 1 && live[at].seq % 17 !== 5) end(at);
    }
  }
  while (live.length > 0) end(Math.floor(next() * live.length));
  const counts = sheets.finish();
  return { images, counts, manifest: fs.readFileSync(manifestPath, "utf8"), expected, labels };
}

describe("ImageSheets against a model of the pass", () => {
  it("gives every row its session's first 280 bytes, zero-padded, in its image, with its manifest line", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sheets-model-"));
    for (const n of [1, 2, 5]) {
      for (const labelled of [false, true]) {
        const sessions = 37 + n;
        const { images, counts, manifest, expected, labels } = simulate(7 + n, n, sessions, labelled);
        const imageCount = Math.ceil(sessions / n);
        expect(counts).toEqual({ images: imageCount, rows: sessions });
        expect(images.map((image) => image.name)).toEqual(
          Array.from({ length: imageCount }, (_, i) => `images/image-${String(i + 1).padStart(6, "0")}.png`),
        );
        for (let seq = 0; seq < imageCount * n; seq++) {
          const want = new Uint8Array(IMAGE_ROW_BYTES);
          if (seq < sessions) want.set(expected[seq]);
          const got = images[Math.floor(seq / n)].rows[seq % n];
          expect({ n, labelled, seq, row: Array.from(got) }).toEqual({ n, labelled, seq, row: Array.from(want) });
        }
        const lines = manifest.trimEnd().split("\n");
        expect(lines).toHaveLength(sessions + 1);
        for (let seq = 0; seq < sessions; seq++) {
          const image = `images/image-${String(Math.floor(seq / n) + 1).padStart(6, "0")}.png`;
          const line = `${image},${seq % n},${seq + 1}${labelled ? `,${labels[seq]}` : ""}`;
          expect(lines[seq + 1]).toBe(line);
        }
      }
    }
  });
});
