// The images capability end to end: PNG pixels decoded and compared with the expected zeroed bytes, zip layout (the
// CSV first, as extract writes it), manifest, padding and labels; cancels and failures leave no file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readZip } from "../../../../test/helpers/read-zip.js";
import { capturedPacket, ethernet, ipv4, ipv6, pcapFile, tcp, udp } from "../../../core/src/testing/index.js";
import { extractFeatures } from "../extract/extract-features.js";
import { extractImages } from "./extract-images.js";
import { ImageSheets } from "./image-sheets.js";

const T = 1_700_000_000;
const ACK = 0x10;
const payload = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 13 + seed) % 256);

/** Session A: three IPv4 TCP packets (240, 40, 140 IP bytes); B: one IPv6 UDP packet; C: one IPv4 UDP packet. */
const frames = [
  ethernet(
    ipv4(
      { src: "10.1.2.3", dst: "10.4.5.6" },
      tcp({ srcPort: 4321, dstPort: 80, flags: ACK, payload: payload(200, 1) }),
    ),
  ),
  ethernet(
    ipv6({ src: "2001:db8::7", dst: "2001:db8::8" }, udp({ srcPort: 5353, dstPort: 53, payload: payload(4, 2) })),
  ),
  ethernet(ipv4({ src: "10.4.5.6", dst: "10.1.2.3" }, tcp({ srcPort: 80, dstPort: 4321, flags: ACK }))),
  ethernet(
    ipv4(
      { src: "10.1.2.3", dst: "10.4.5.6" },
      tcp({ srcPort: 4321, dstPort: 80, flags: ACK, payload: payload(100, 3) }),
    ),
  ),
  ethernet(
    ipv4({ src: "192.0.2.1", dst: "192.0.2.2" }, udp({ srcPort: 1111, dstPort: 2222, payload: payload(10, 4) })),
  ),
];
const packets = frames.map((frame, i) => capturedPacket(frame, { linkType: 1, tsSec: T + i, tsNsec: 0 }));

/** A packet's bytes from the IP header on, with the given ranges (relative to the IP header) zeroed. */
function ipBytes(frame: Uint8Array, zeroed: [number, number][]): number[] {
  const bytes = frame.slice(14);
  for (const [from, to] of zeroed) bytes.fill(0, from, to);
  return Array.from(bytes);
}
const V4 = [[12, 20] as [number, number], [20, 24] as [number, number]];
const V6 = [[8, 40] as [number, number], [40, 44] as [number, number]];

function row(...parts: number[][]): number[] {
  const bytes = parts.flat().slice(0, 280);
  return bytes.concat(new Array(280 - bytes.length).fill(0));
}

/** The image's rows of pixels (pngjs decodes grayscale to RGBA; the red channel is the gray byte). */
function pixelRows(png: Buffer): number[][] {
  const image = PNG.sync.read(png, { skipRescale: true });
  expect(image.width).toBe(280);
  const rows: number[][] = [];
  for (let y = 0; y < image.height; y++) {
    rows.push(Array.from({ length: 280 }, (_, x) => image.data[4 * (y * 280 + x)]));
  }
  return rows;
}

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function setUp(): { capture: string; outDir: string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-images-"));
  const capture = path.join(dir, "capture.pcap");
  fs.writeFileSync(capture, pcapFile(packets));
  const outDir = path.join(dir, "out");
  fs.mkdirSync(outDir);
  return { capture, outDir };
}

describe("extractImages", () => {
  it("writes n × 280 PNGs of the sessions' first 280 IP bytes with addresses and ports zeroed", async () => {
    const { capture, outDir } = setUp();
    const result = await extractImages(capture, { flowsPerImage: 2 }, { outDir });
    expect(fs.readdirSync(outDir).sort()).toEqual(["images.zip", "summary.json"]);
    const zipFile = path.join(outDir, "images.zip");
    const entries = await readZip(zipFile);
    expect([...entries.keys()]).toEqual([
      "features.csv",
      "images/image-000001.png",
      "images/image-000002.png",
      "manifest.csv",
    ]);
    expect(execFileSync("unzip", ["-t", zipFile], { encoding: "utf8" })).toContain("No errors detected");
    // The CSV entry is, byte for byte, what a plain extract writes.
    const extractDir = path.join(dir, "extract");
    fs.mkdirSync(extractDir);
    await extractFeatures(capture, { outDir: extractDir });
    expect(entries.get("features.csv")!.equals(fs.readFileSync(path.join(extractDir, "features.csv")))).toBe(true);
    const first = pixelRows(entries.get("images/image-000001.png")!);
    const second = pixelRows(entries.get("images/image-000002.png")!);
    expect(first).toHaveLength(2);
    expect(first[0]).toEqual(row(ipBytes(frames[0], V4), ipBytes(frames[2], V4)));
    expect(first[1]).toEqual(row(ipBytes(frames[1], V6)));
    expect(second).toEqual([row(ipBytes(frames[4], V4)), row()]);
    expect(entries.get("manifest.csv")!.toString()).toBe(
      "image,row,csv_row\nimages/image-000001.png,0,1\nimages/image-000001.png,1,2\nimages/image-000002.png,0,3\n",
    );
    const csv = entries.get("features.csv")!.toString().trimEnd().split("\n");
    expect(csv).toHaveLength(4);
    expect(csv.slice(1).map((line) => line.split(",")[2])).toEqual(["10.1.2.3", "2001:db8::7", "192.0.2.1"]);
    expect(result.summary.images).toEqual({ images: 2, rows: 3, flowsPerImage: 2, keepAddresses: false });
  });

  it("keeps addresses and ports with keepAddresses, and adds labels to the manifest and CSV", async () => {
    const { capture, outDir } = setUp();
    const attacks = path.join(dir, "attacks.pcap");
    fs.writeFileSync(attacks, pcapFile([packets[4]]));
    await extractImages(capture, { flowsPerImage: 3, keepAddresses: true, attacks }, { outDir });
    const entries = await readZip(path.join(outDir, "images.zip"));
    const rows = pixelRows(entries.get("images/image-000001.png")!);
    expect(rows[0]).toEqual(row(ipBytes(frames[0], []), ipBytes(frames[2], [])));
    expect(rows[2]).toEqual(row(ipBytes(frames[4], [])));
    expect(entries.get("manifest.csv")!.toString()).toBe(
      "image,row,csv_row,label\nimages/image-000001.png,0,1,0\nimages/image-000001.png,1,2,0\nimages/image-000001.png,2,3,1\n",
    );
    const csv = entries.get("features.csv")!.toString().trimEnd().split("\n");
    expect(csv[0].endsWith(",label")).toBe(true);
    expect(csv.slice(1).map((line) => line.at(-1))).toEqual(["0", "0", "1"]);
  });

  it("gives a byte-identical zip for the same input, and rejects a bad row count", async () => {
    const { capture, outDir } = setUp();
    await extractImages(capture, { flowsPerImage: 1 }, { outDir });
    const once = fs.readFileSync(path.join(outDir, "images.zip"));
    fs.rmSync(outDir, { recursive: true });
    fs.mkdirSync(outDir);
    await extractImages(capture, { flowsPerImage: 1 }, { outDir });
    expect(fs.readFileSync(path.join(outDir, "images.zip")).equals(once)).toBe(true);
    await expect(extractImages(capture, { flowsPerImage: 0 }, { outDir })).rejects.toMatchObject({
      code: "BAD_OPTION",
    });
  });

  it("closes the manifest and leaves no zip when cancelled", async () => {
    const { capture, outDir } = setUp();
    const discard = vi.spyOn(ImageSheets.prototype, "discard");
    const controller = new AbortController();
    controller.abort();
    try {
      await expect(
        extractImages(capture, { flowsPerImage: 1 }, { outDir, signal: controller.signal }),
      ).rejects.toMatchObject({ code: "CANCELLED" });
      expect(discard).toHaveBeenCalledTimes(1);
    } finally {
      discard.mockRestore();
    }
    expect(fs.readdirSync(outDir)).toEqual([]);
  });

  it("leaves no file when the run fails after the pass, with the CSV and images written", async () => {
    const { capture, outDir } = setUp();
    const finish = vi.spyOn(ImageSheets.prototype, "finish").mockImplementation(() => {
      throw new Error("failed at the end");
    });
    try {
      await expect(extractImages(capture, { flowsPerImage: 1 }, { outDir })).rejects.toThrow("failed at the end");
    } finally {
      finish.mockRestore();
    }
    expect(fs.readdirSync(outDir)).toEqual([]);
  });
});
