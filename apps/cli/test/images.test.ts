// tracemill images on a public capture: the zip's entries, the PNG sizes, and the first session's row decoded from
// its PNG and compared with that session's packets read straight from the pcap (addresses and ports zeroed).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { imagesParams } from "@tracemill/contracts";
import { PNG } from "pngjs";
import { afterAll, describe, expect, it } from "vitest";
import { readZip } from "../../../test/helpers/read-zip.js";
import { repoRoot, runCli } from "./run-cli.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-images-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const capture = path.resolve(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");

/** The IP bytes of every IPv4 TCP/UDP packet of a little-endian microsecond pcap over Ethernet, with its 5-tuple. */
function ipv4Packets(file: string): { key: string; ip: Buffer }[] {
  const bytes = fs.readFileSync(file);
  expect(bytes.readUInt32LE(0)).toBe(0xa1b2c3d4);
  const packets: { key: string; ip: Buffer }[] = [];
  for (let at = 24; at + 16 <= bytes.length; ) {
    const captured = bytes.readUInt32LE(at + 8);
    const frame = bytes.subarray(at + 16, at + 16 + captured);
    at += 16 + captured;
    if (frame.readUInt16BE(12) !== 0x0800) continue;
    const ip = frame.subarray(14, 14 + frame.readUInt16BE(16));
    const protocol = ip[9];
    if (protocol !== 6 && protocol !== 17) continue;
    const headerLength = (ip[0] & 15) * 4;
    const ends = [
      `${ip.subarray(12, 16).join(".")}:${ip.readUInt16BE(headerLength)}`,
      `${ip.subarray(16, 20).join(".")}:${ip.readUInt16BE(headerLength + 2)}`,
    ].sort();
    packets.push({ key: `${protocol} ${ends.join(" ")}`, ip: Buffer.from(ip) });
  }
  return packets;
}

describe("tracemill images", () => {
  it("zips n × 280 PNGs whose first row is the first session's zeroed IP bytes, with the manifest and the CSV", async () => {
    const out = path.join(dir, "images.zip");
    const result = runCli(["images", capture, "--flows-per-image", "4", "-o", out]);
    expect(result.status, result.stderr).toBe(0);
    const entries = await readZip(out);
    const csv = entries.get("features.csv")!.toString().trimEnd().split("\n");
    const sessions = csv.length - 1;
    const names = [...entries.keys()];
    expect([names[0], names.at(-1)]).toEqual(["features.csv", "manifest.csv"]);
    expect(names.length - 2).toBe(Math.ceil(sessions / 4));
    const manifest = entries.get("manifest.csv")!.toString().trimEnd().split("\n");
    expect(manifest).toHaveLength(sessions + 1);
    expect(manifest.at(-1)).toBe(`${names[names.length - 2]},${(sessions - 1) % 4},${sessions}`);

    const [first] = csv.slice(1).map((line) => line.split(","));
    const key = `${first[0]} ${[`${first[2]}:${first[3]}`, `${first[4]}:${first[5]}`].sort().join(" ")}`;
    const expected: number[] = [];
    for (const packet of ipv4Packets(capture).filter((p) => p.key === key)) {
      const ip = Buffer.from(packet.ip);
      const transport = (ip[0] & 15) * 4;
      ip.fill(0, 12, 20);
      ip.fill(0, transport, transport + 4);
      expected.push(...ip);
    }
    const row = expected.slice(0, 280).concat(new Array(Math.max(0, 280 - expected.length)).fill(0));
    const image = PNG.sync.read(entries.get(names[1])!, { skipRescale: true });
    expect([image.width, image.height]).toEqual([280, 4]);
    expect(Array.from({ length: 280 }, (_, x) => image.data[4 * x])).toEqual(row);
    expect(result.stderr).toContain(`${sessions} sessions in ${names.length - 2} images`);
  });

  it("makes images of the web application's default height without --flows-per-image", async () => {
    const out = path.join(dir, "default.zip");
    const result = runCli(["images", capture, "-o", out]);
    expect(result.status, result.stderr).toBe(0);
    const entries = await readZip(out);
    const image = PNG.sync.read(entries.get("images/image-000001.png")!, { skipRescale: true });
    expect(image.height).toBe(imagesParams.parse({}).flowsPerImage);
  });

  it("exits 2 with a bad count", () => {
    expect(runCli(["images", capture, "--flows-per-image", "0"]).status).toBe(2);
    expect(runCli(["images", capture, "-n", "2.5"]).status).toBe(2);
  });
});
