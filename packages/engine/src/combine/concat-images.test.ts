// Joining images zips of parts (the images capability over synthetic captures): the joined zip passes Info-ZIP's
// test with each part's PNGs under their new numbers; a part whose PNG, manifest or CSV does not match its CRC-32 is
// refused in one line naming the part and the entry, and no joined zip (nor scratch file) is left.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, udp } from "../../../core/src/testing/index.js";
import { extractImages } from "../images/extract-images.js";
import { concatImageZips } from "./concat-images.js";

let dir = "";
const parts: string[] = [];

/** An images zip of `count` one-packet UDP sessions, 2 per image. */
async function imagesZip(name: string, count: number): Promise<string> {
  const packets = Array.from({ length: count }, (_, i) => {
    const frame = ethernet(ipv4({ src: `10.0.0.${i}`, dst: "192.0.2.1" }, udp({ srcPort: 1000 + i, dstPort: 53 })));
    return capturedPacket(frame, { linkType: 1, tsSec: 1_700_000_000 + i, tsNsec: 0 });
  });
  const capture = path.join(dir, `${name}.pcap`);
  fs.writeFileSync(capture, pcapFile(packets));
  const outDir = path.join(dir, name);
  fs.mkdirSync(outDir);
  await extractImages(capture, { flowsPerImage: 2 }, { outDir });
  return path.join(outDir, "images.zip");
}

const unzipped = (zip: string, entry: string) => execFileSync("unzip", ["-p", zip, entry]);

/** A copy of `zip` with one byte of `entry`'s stored bytes, `from` its end, changed. */
function damaged(zip: string, entry: string, from: number): string {
  const bytes = fs.readFileSync(zip);
  const data = unzipped(zip, entry);
  const at = bytes.indexOf(data) + data.length - from;
  bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30;
  const file = path.join(dir, `damaged-${path.basename(entry)}.zip`);
  fs.writeFileSync(file, bytes);
  return file;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-concat-images-"));
  parts.push(await imagesZip("first", 5), await imagesZip("second", 4));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("concatImageZips", () => {
  it("writes a zip that Info-ZIP tests clean, the second part's PNGs numbered on after the first's", async () => {
    const out = fs.mkdtempSync(path.join(dir, "joined-"));
    const joined = path.join(out, "images.zip");
    await concatImageZips(parts, joined);
    expect(execFileSync("unzip", ["-tq", joined], { encoding: "utf8" })).toMatch(/^No errors detected/);
    // 5 sessions make 3 images, so the second part's first image is the fourth.
    expect(unzipped(joined, "images/image-000004.png").equals(unzipped(parts[1], "images/image-000001.png"))).toBe(
      true,
    );
    expect(fs.readdirSync(out)).toEqual(["images.zip"]);
  });

  it("refuses a part whose PNG, manifest or CSV is damaged, naming it and the entry, and leaves nothing", async () => {
    // A byte of a PNG's data, a digit of the manifest's last csv_row, a digit of the CSV's last row.
    for (const [entry, from] of [
      ["images/image-000002.png", 20],
      ["manifest.csv", 2],
      ["features.csv", 2],
    ] as const) {
      const part = damaged(parts[1], entry, from);
      const out = fs.mkdtempSync(path.join(dir, "refused-"));
      await expect(concatImageZips([parts[0], part], path.join(out, "images.zip"))).rejects.toThrow(
        `${part}: ${entry} is damaged: its bytes do not match the CRC-32 the zip records`,
      );
      expect(fs.readdirSync(out)).toEqual([]);
    }
  });
});
