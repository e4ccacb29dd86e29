// The gallery's reading of real images zips (the images capability over a synthetic capture, one labelled, one joined
// from two parts) against an independent reading of the same zip: Info-ZIP's unzip for the entries, the manifest and
// the CSV split by hand in the test. Odd zips (a damaged PNG, a compressed CSV, a manifest out of order) are refused
// in one line naming the zip and the entry.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, udp } from "../../../core/src/testing/index.js";
import { concatImageZips } from "../combine/concat-images.js";
import { extractImages } from "../images/extract-images.js";
import { openImageGallery } from "./image-gallery.js";

const T = 1_700_000_000;
let dir = "";

/** `count` one-packet UDP sessions, session i from 10.0.<i/256>.<i%256> port 1000+i to 192.0.2.1 port 53. */
function capture(name: string, count: number, first = 0): string {
  const packets = Array.from({ length: count }, (_, k) => {
    const i = first + k;
    const frame = ethernet(
      ipv4({ src: `10.0.${i >> 8}.${i & 255}`, dst: "192.0.2.1" }, udp({ srcPort: 1000 + i, dstPort: 53 })),
    );
    return capturedPacket(frame, { linkType: 1, tsSec: T + i, tsNsec: 0 });
  });
  const file = path.join(dir, name);
  fs.writeFileSync(file, pcapFile(packets));
  return file;
}

async function imagesZip(name: string, source: string, options: Parameters<typeof extractImages>[1]) {
  const outDir = path.join(dir, name);
  fs.mkdirSync(outDir);
  await extractImages(source, options, { outDir });
  return path.join(outDir, "images.zip");
}

/** An entry's bytes as Info-ZIP reads them. */
const unzipped = (zip: string, entry: string) => execFileSync("unzip", ["-p", zip, entry], { maxBuffer: 1 << 26 });

/** The independent reading: PNG names from unzip's listing, manifest lines and CSV sessions split by hand. */
function expected(zip: string) {
  const listing = execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).trim().split("\n");
  const pngs = listing.filter((name) => name.endsWith(".png"));
  const [manifestHeader, ...manifestLines] = unzipped(zip, "manifest.csv").toString().trimEnd().split("\n");
  const [csvHeader, ...csvLines] = unzipped(zip, "features.csv").toString().trimEnd().split("\n");
  const columns = csvHeader.split(",");
  const at = (name: string) => columns.indexOf(name);
  const session = (line: string) => {
    const cells = line.split(",");
    return {
      protocol: Number(cells[at("protocol")]),
      start: cells[at("ts")],
      srcIP: cells[at("srcIP")],
      srcPort: Number(cells[at("srcPrt")]),
      dstIP: cells[at("dstIP")],
      dstPort: Number(cells[at("dstPrt")]),
    };
  };
  const rowsOf = (name: string) =>
    manifestLines
      .map((line) => line.split(","))
      .filter(([image]) => image === name)
      .map(([, row, csvRow, ...labels]) => ({
        row: Number(row),
        csvRow: Number(csvRow),
        labels,
        session: session(csvLines[Number(csvRow) - 1]),
      }));
  return { pngs, labelColumns: manifestHeader.split(",").slice(3), sessions: manifestLines.length, rowsOf };
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-gallery-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("openImageGallery", () => {
  it("pages through images with each row's manifest line and session, and reads any PNG as unzip does", async () => {
    const zip = await imagesZip("plain", capture("plain.pcap", 40), { flowsPerImage: 3 });
    const gallery = await openImageGallery(zip, "images.zip");
    const truth = expected(zip);
    expect(truth.pngs).toHaveLength(14);
    expect(gallery.images).toBe(14);
    expect(gallery.sessions).toBe(40);
    expect(gallery.labelColumns).toEqual([]);
    expect(gallery.rowsPerImage).toBe(3);
    for (const [offset, limit] of [
      [0, 5],
      [12, 5],
      [13, 1],
    ]) {
      const page = await gallery.page(offset, limit);
      expect(page.map((image) => image.name)).toEqual(truth.pngs.slice(offset, offset + limit));
      for (const image of page) expect(image.rows).toEqual(truth.rowsOf(image.name));
    }
    // The last image holds the 40th session alone; its first row is 10.0.0.39's.
    const [last] = await gallery.page(13, 1);
    expect(last).toMatchObject({ number: 14, rows: [{ row: 0, csvRow: 40, session: { srcIP: "10.0.0.39" } }] });
    expect(await gallery.page(14, 5)).toEqual([]);
    for (const number of [1, 7, 14]) {
      const name = truth.pngs[number - 1];
      expect((await gallery.png(number))?.equals(unzipped(zip, name))).toBe(true);
    }
    expect(await gallery.png(0)).toBeNull();
    expect(await gallery.png(15)).toBeNull();
  });

  it("reads rows far into the CSV through its index, one image per session", async () => {
    const zip = await imagesZip("one", capture("one.pcap", 300), { flowsPerImage: 1 });
    const gallery = await openImageGallery(zip, "images.zip");
    const truth = expected(zip);
    expect(gallery.images).toBe(300);
    const page = await gallery.page(200, 70);
    expect(page).toHaveLength(70);
    for (const image of page) expect(image.rows).toEqual(truth.rowsOf(image.name));
    expect(page[0].rows[0].session).toMatchObject({ srcIP: "10.0.0.200", srcPort: 1200, dstPort: 53, protocol: 17 });
    expect(page[69].rows[0].session?.srcIP).toBe("10.0.1.13");
  });

  it("gives a labelled zip's label columns and a joined zip's unevenly filled images", async () => {
    const source = capture("labelled.pcap", 10);
    const attacks = path.join(dir, "attacks.pcap");
    fs.copyFileSync(capture("attack-part.pcap", 2, 4), attacks);
    const labelled = await imagesZip("labelled", source, { flowsPerImage: 4, attacks });
    const gallery = await openImageGallery(labelled, "images.zip");
    const truth = expected(labelled);
    expect(gallery.labelColumns).toEqual(["label"]);
    const page = await gallery.page(0, 3);
    for (const image of page) expect(image.rows).toEqual(truth.rowsOf(image.name));
    expect(page[1].rows.map((row) => row.labels)).toEqual([["1"], ["1"], ["0"], ["0"]]);

    const first = await imagesZip("part1", capture("part1.pcap", 5), { flowsPerImage: 4 });
    const second = await imagesZip("part2", capture("part2.pcap", 6, 100), { flowsPerImage: 4 });
    const joined = path.join(dir, "joined.zip");
    await concatImageZips([first, second], joined);
    const both = await openImageGallery(joined, "images.zip");
    const joinedTruth = expected(joined);
    expect(both.images).toBe(4);
    const images = await both.page(0, 4);
    expect(images.map((image) => image.rows.length)).toEqual([4, 1, 4, 2]);
    for (const image of images) expect(image.rows).toEqual(joinedTruth.rowsOf(image.name));
    expect(images[2].rows[0].session?.srcIP).toBe("10.0.0.100");
  });

  it("reads a manifest and a CSV of several megabytes, their rows cut across its reads", async () => {
    // Made by hand and zipped by Info-ZIP (stored): 60 images of 1000 rows; the gallery does not decode PNGs.
    const made = path.join(dir, "made");
    fs.mkdirSync(path.join(made, "images"), { recursive: true });
    const header = "protocol,ts,srcIP,srcPrt,dstIP,dstPrt,note";
    const csvLines = [header];
    const manifest = ["image,row,csv_row,label,class_id,class"];
    for (let k = 1; k <= 60_000; k++) {
      const note = k % 7 === 0 ? '"a, quoted\nnote"' : "plain";
      csvLines.push(`6,${T + k}.5,10.${k >> 16}.${(k >> 8) & 255}.${k & 255},${k % 65536},192.0.2.1,443,${note}`);
      const image = `images/image-${String(Math.ceil(k / 1000)).padStart(6, "0")}.png`;
      manifest.push(`${image},${(k - 1) % 1000},${k},1,${k % 3},"Class, ${k % 3}"`);
    }
    fs.writeFileSync(path.join(made, "features.csv"), `${csvLines.join("\n")}\n`);
    // One line ends exactly where the first 1 MiB read ends, padded to it: the next read (a full one, into the same
    // memory) starts on a row of its own.
    const ends: number[] = [];
    for (const line of manifest) ends.push((ends.at(-1) ?? 0) + line.length + 1);
    const last = ends.findIndex((end) => end > 1024 * 1024) - 1;
    const before = ends[last];
    manifest[last] = manifest[last].replace(/"$/, `${"x".repeat(1024 * 1024 - before)}"`);
    fs.writeFileSync(path.join(made, "manifest.csv"), `${manifest.join("\n")}\n`);
    for (let n = 1; n <= 60; n++) {
      fs.writeFileSync(path.join(made, `images/image-${String(n).padStart(6, "0")}.png`), `png ${n}`);
    }
    const zip = path.join(dir, "made.zip");
    execFileSync("zip", ["-q", "-0", "-r", zip, "features.csv", "images", "manifest.csv"], { cwd: made });
    expect(fs.statSync(zip).size).toBeGreaterThan(3 * 1024 * 1024);
    const gallery = await openImageGallery(zip, "made.zip");
    expect(gallery).toMatchObject({ images: 60, sessions: 60_000, rowsPerImage: 1000 });
    expect(gallery.labelColumns).toEqual(["label", "class_id", "class"]);
    const [image] = await gallery.page(33, 1);
    expect(image.rows).toHaveLength(1000);
    for (const row of [image.rows[0], image.rows[500], image.rows[999]]) {
      const k = 33_000 + row.row + 1;
      expect(row).toEqual({
        row: row.row,
        csvRow: k,
        labels: ["1", String(k % 3), `Class, ${k % 3}`],
        session: {
          protocol: 6,
          start: `${T + k}.5`,
          srcIP: `10.${k >> 16}.${(k >> 8) & 255}.${k & 255}`,
          srcPort: k % 65536,
          dstIP: "192.0.2.1",
          dstPort: 443,
        },
      });
    }
    expect((await gallery.png(60))?.toString()).toBe("png 60");
  });

  it("refuses a damaged PNG, a compressed CSV and a manifest out of order, naming the entry", async () => {
    const zip = await imagesZip("odd", capture("odd.pcap", 6), { flowsPerImage: 2 });
    const png = unzipped(zip, "images/image-000002.png");
    const bytes = fs.readFileSync(zip);
    const at = bytes.indexOf(png);
    bytes[at + png.length - 20] ^= 0xff;
    const damaged = path.join(dir, "damaged.zip");
    fs.writeFileSync(damaged, bytes);
    const gallery = await openImageGallery(damaged, "images.zip");
    expect((await gallery.png(1))?.length).toBeGreaterThan(0);
    await expect(gallery.png(2)).rejects.toThrow(
      "images.zip: images/image-000002.png is damaged: its bytes do not match the CRC-32 the zip records",
    );

    // The same entries zipped again by Info-ZIP: deflated, then stored with the manifest's lines out of order.
    const unpacked = path.join(dir, "unpacked");
    execFileSync("unzip", ["-q", zip, "-d", unpacked]);
    const deflated = path.join(dir, "deflated.zip");
    execFileSync("zip", ["-q", "-9", "-r", deflated, "."], { cwd: unpacked });
    await expect(openImageGallery(deflated, "images.zip")).rejects.toThrow(
      /^images\.zip: (features|manifest)\.csv is compressed \(method 8\); it is read in place only when stored$/,
    );
    const manifest = path.join(unpacked, "manifest.csv");
    const [header, ...lines] = fs.readFileSync(manifest, "utf8").trimEnd().split("\n");
    fs.writeFileSync(manifest, `${[header, lines[0].replace(/,1$/, ",99"), ...lines.slice(1)].join("\n")}\n`);
    const beyond = path.join(dir, "beyond.zip");
    execFileSync("zip", ["-q", "-0", "-r", beyond, "."], { cwd: unpacked });
    await expect((await openImageGallery(beyond, "images.zip")).page(0, 1)).rejects.toThrow(
      'images.zip: manifest.csv data row 1: "0,99" is not a pixel row and one of the 6 rows of features.csv',
    );
    fs.writeFileSync(manifest, `${[header, lines[2], lines[0], lines[1], ...lines.slice(3)].join("\n")}\n`);
    const shuffled = path.join(dir, "shuffled.zip");
    execFileSync("zip", ["-q", "-0", "-r", shuffled, "."], { cwd: unpacked });
    await expect(openImageGallery(shuffled, "images.zip")).rejects.toThrow(
      "images.zip: manifest.csv line 2: images/image-000002.png is not the zip's next image, not " +
        "images/image-000001.png: lines go image after image",
    );
    fs.writeFileSync(path.join(dir, "not.zip"), "not a zip");
    await expect(openImageGallery(path.join(dir, "not.zip"), "images.zip")).rejects.toThrow(
      /^images\.zip: not a readable zip \(/,
    );
  });
});
