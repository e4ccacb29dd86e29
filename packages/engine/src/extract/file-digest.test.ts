// FileDigest: the SHA-256 of the file as stored, whether the reader hands over all its bytes, some of them (damage),
// or none (gzip input, an unused tap).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import type { ChunkTap } from "../capture/index.js";
import { readCapture } from "../capture/index.js";
import { workersRetired } from "../threads/retire.js";
import { FileDigest, sha256OfFile } from "./file-digest.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const pcap = path.join(repo, "test/fixtures/capture/formats/same100_100-packets.pcap");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-digest-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const sha256 = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** The digest's tap, counting the bytes handed over and how many buffers it gave out. */
function counted(digest: FileDigest): { tap: ChunkTap; taken: () => number; buffers: () => number } {
  let taken = 0;
  let buffers = 0;
  const tap: ChunkTap = {
    allocate: (bytes) => {
      buffers++;
      return digest.tap.allocate(bytes);
    },
    take: (buffer, length) => {
      taken += length;
      digest.tap.take(buffer, length);
    },
    released: (buffer) => digest.tap.released(buffer),
    declined: () => digest.tap.declined(),
  };
  return { tap, taken: () => taken, buffers: () => buffers };
}

describe("FileDigest", () => {
  it.each([
    ["read ahead", true],
    ["read on this thread", false],
  ])("hashes the chunks the reader read, through three reused shared buffers (%s)", async (_, readAhead) => {
    const digest = new FileDigest(pcap);
    const { tap, taken, buffers } = counted(digest);
    const result = await readCapture(pcap, () => {}, { chunkBytes: 256, tap, readAhead });
    expect(result.packets).toBe(100);
    expect(taken()).toBe(fs.statSync(pcap).size);
    expect(buffers()).toBe(3);
    expect(await digest.result()).toBe(sha256(pcap));
  });

  it.each([
    ["read ahead", true],
    ["read on this thread", false],
  ])("reads the bytes after a damaged record itself (%s)", async (_, readAhead) => {
    const damaged = path.join(tmp, "damaged.pcap");
    const bytes = fs.readFileSync(pcap);
    let offset = 24;
    for (let i = 0; i < 10; i++) offset += 16 + bytes.readUInt32LE(offset + 8);
    bytes.writeUInt32LE(0x7fffffff, offset + 8);
    fs.writeFileSync(damaged, bytes);
    const digest = new FileDigest(damaged);
    const { tap, taken } = counted(digest);
    const result = await readCapture(damaged, () => {}, { chunkBytes: 256, tap, readAhead });
    expect(result.complete).toBe(false);
    expect(taken()).toBeLessThan(bytes.length);
    expect(await digest.result()).toBe(sha256(damaged));
  });

  it("hashes the compressed file of gzip input (the tap is declined)", async () => {
    const gz = path.join(tmp, "same.pcap.gz");
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(pcap)));
    const digest = new FileDigest(gz);
    const { tap, taken } = counted(digest);
    expect((await readCapture(gz, () => {}, { tap })).packets).toBe(100);
    expect(taken()).toBe(0);
    expect(await digest.result()).toBe(sha256(gz));
  });

  it("reads the whole file when the tap is not used", async () => {
    expect(await sha256OfFile(pcap)).toBe(sha256(pcap));
  });

  it("rejects for a missing file", async () => {
    await expect(sha256OfFile(path.join(tmp, "missing.pcap"))).rejects.toThrow(/ENOENT/);
  });

  it("gives no digest once cancelled, though its worker stops hashing part-way and idles until it ends", async () => {
    // 512 MiB of holes: longer to hash than the test waits, no disk space taken.
    const big = path.join(tmp, "big.bin");
    fs.closeSync(fs.openSync(big, "w"));
    fs.truncateSync(big, 512 << 20);
    const digest = new FileDigest(big);
    let settled = false;
    digest.result().then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    digest.cancel();
    await workersRetired();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
  });
});
