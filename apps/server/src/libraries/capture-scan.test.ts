// A library capture's info and SHA-256 from one read, checked against capinfos and sha256sum: plain files of several
// chunks, gzip (hashed by a second read of the stored bytes), and a capture damaged part-way.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { scanCapture } from "./capture-scan.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-capture-scan-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const sha256sum = (file: string) => execFileSync("sha256sum", [file], { encoding: "utf8" }).split(" ")[0];

/** capinfos' packets, first and last time (seconds since the epoch, as text) and encapsulation. */
function capinfos(file: string) {
  // A damaged capture makes capinfos exit with status 2 after printing what it read.
  const result = spawnSync("capinfos", ["-T", "-r", "-M", "-c", "-a", "-e", "-S", "-E", file], { encoding: "utf8" });
  const line = result.stdout;
  const [, encapsulation, packets, first, last] = line.trim().split("\t");
  return { encapsulation, packets: Number(packets), first, last };
}

/** An ISO time with nanoseconds as seconds since the epoch, to `digits` decimals, for comparing with capinfos. */
function epoch(iso: string | null, digits: number): string {
  const match = /^(.*T\d\d:\d\d:\d\d)\.(\d{9})Z$/.exec(iso ?? "");
  if (!match) throw new Error(`not an ISO time with nanoseconds: ${iso}`);
  return `${Date.parse(`${match[1]}Z`) / 1000}.${match[2].slice(0, digits)}`;
}

describe("scanCapture", () => {
  it("reads a capture of several 1 MiB chunks once, hashing the bytes as they pass", async () => {
    const file = fixturePath("nprint-port80.pcap");
    expect(fs.statSync(file).size).toBeGreaterThan(1024 * 1024);
    const scan = await scanCapture(file, { hash: true });
    const expected = capinfos(file);
    expect(scan.sha256).toBe(sha256sum(file));
    expect(scan.info.packets).toBe(expected.packets);
    expect(epoch(scan.info.first, 6)).toBe(expected.first);
    expect(epoch(scan.info.last, 6)).toBe(expected.last);
    expect(expected.encapsulation).toBe("ether");
    expect(scan.info.linkTypes).toEqual([{ linkType: 1, name: "Ethernet", packets: expected.packets }]);
    expect(scan.info.complete).toBe(true);
  });

  it("hashes the stored bytes of a gzip capture and reads its packets", async () => {
    const file = path.join(tmp, "same.pcap.gz");
    fs.writeFileSync(file, zlib.gzipSync(fs.readFileSync(fixturePath("same100_100-packets.pcap"))));
    const scan = await scanCapture(file, { hash: true });
    expect(scan.sha256).toBe(sha256sum(file));
    expect(scan.info.packets).toBe(capinfos(fixturePath("same100_100-packets.pcap")).packets);
  });

  it("takes no hash when not asked, and reads an ERF capture", async () => {
    const file = fixturePath("erf_5-packets.erf");
    const scan = await scanCapture(file, { hash: false });
    const expected = capinfos(file);
    expect(scan.sha256).toBeNull();
    expect(scan.info.packets).toBe(expected.packets);
    expect(epoch(scan.info.first, 9)).toBe(expected.first);
    expect(epoch(scan.info.last, 9)).toBe(expected.last);
  });

  it("says where a capture damaged part-way stops, and hashes all of its bytes", async () => {
    const whole = fs.readFileSync(fixturePath("same100_100-packets.pcap"));
    // Cut in the middle of a record: the reader stops there; the bytes after were never handed to the hash.
    const file = path.join(tmp, "cut.pcap");
    fs.writeFileSync(file, whole.subarray(0, whole.length - 30));
    const scan = await scanCapture(file, { hash: true });
    expect(scan.sha256).toBe(sha256sum(file));
    expect(scan.info.complete).toBe(false);
    expect(scan.info.packets).toBe(capinfos(file).packets);
    expect(scan.info.damage).toMatch(/^at byte \d+: /);
  });
});
