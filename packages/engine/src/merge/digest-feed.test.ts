// The hashing worker fed by the passes: whatever share of the file the passes hand over (all, part, none), the
// digest is of the whole file, and the passes still read the file's exact bytes.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { DigestFeed } from "./digest-feed.js";
import { FedFile } from "./fed-file.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "digest-feed-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SLOT = 1024;
function file(name: string, bytes: Buffer): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, bytes);
  return target;
}
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function readAll(input: FedFile): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let chunk = await input.read(); chunk; chunk = await input.read()) parts.push(Buffer.from(chunk));
  await input.close();
  return Buffer.concat(parts);
}

describe("DigestFeed", () => {
  const big = randomBytes(40 * SLOT + 37);
  const small = randomBytes(3 * SLOT);
  const [bigFile, smallFile] = [file("big.bin", big), file("small.bin", small)];

  it("hashes a file fed partly by a pass that does not wait and the rest by one that does", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT);
    try {
      // The first pass runs ahead of the worker (no event-loop turn): it feeds at most the ring, then reads alone.
      expect(await readAll(FedFile.open(bigFile, feed, 0, { waitForWorker: false, readAhead: true })!)).toEqual(big);
      expect(await readAll(FedFile.open(smallFile, feed, 1, { waitForWorker: false, readAhead: true })!)).toEqual(
        small,
      );
      feed.end(1);
      expect(await readAll(FedFile.open(bigFile, feed, 0, { waitForWorker: true, readAhead: false })!)).toEqual(big);
      expect(feed.wants(0, big.length)).toBe(true);
      expect(await feed.all()).toEqual([sha256(big), sha256(small)]);
    } finally {
      feed.close();
    }
  });

  it("reads what it was not fed from the file itself, from where feeding stopped", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT);
    try {
      const input = FedFile.open(bigFile, feed, 0, { waitForWorker: true, readAhead: true })!;
      for (let i = 0; i < 7; i++) await input.read();
      await input.close();
      // Seven chunks handed out and the eighth read ahead: the worker reads from there on.
      expect(feed.wants(0, 8 * SLOT)).toBe(true);
      expect(await feed.all()).toEqual([sha256(big), sha256(small)]);
    } finally {
      feed.close();
    }
  });

  it("hashes on the reading thread in first-pass mode, and in a worker what it was not fed", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT, "first-pass");
    try {
      // Read ahead is refused: the chunks are hashed where they were read.
      const input = FedFile.open(bigFile, feed, 0, { waitForWorker: false, readAhead: true })!;
      expect(await readAll(input)).toEqual(big);
      expect(feed.wants(0, big.length)).toBe(false);
      const some = FedFile.open(smallFile, feed, 1, { waitForWorker: false, readAhead: false })!;
      await some.read();
      await some.close();
      expect(feed.wants(1, SLOT)).toBe(true);
      expect(await feed.all()).toEqual([sha256(big), sha256(small)]);
    } finally {
      feed.close();
    }
  });

  it("records given digests without a worker, and hashes only the other input", async () => {
    const given = "ab".repeat(32);
    const none = new DigestFeed([bigFile, smallFile], [given, given], SLOT);
    expect(none.slot(0, 0)).toBeNull();
    expect(await none.all()).toEqual([given, given]);
    const one = new DigestFeed([bigFile, smallFile], [given, undefined], SLOT);
    try {
      expect(one.wants(0, 0)).toBe(false);
      expect(await one.all()).toEqual([given, sha256(small)]);
    } finally {
      one.close();
    }
  });

  it("lets a pass waiting for a slot read on alone when the worker stops, and fails the digests", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT);
    // Stopped before it hashes anything: the ring fills and no slot is ever freed again.
    feed.close();
    expect(await readAll(FedFile.open(bigFile, feed, 0, { waitForWorker: true, readAhead: false })!)).toEqual(big);
    await expect(feed.all()).rejects.toThrow(/hashing worker stopped/);
  });

  it("serves a waiting pass's ring while it reads another input's file, a chunk at a time", async () => {
    // 512 MiB of zeros without writing them (a sparse file): hundreds of the worker's 1 MiB reads, far more than the
    // pass needs even when this thread is slow to wake.
    const large = path.join(dir, "large.bin");
    fs.writeFileSync(large, "");
    fs.truncateSync(large, 512 << 20);
    const zeros = createHash("sha256");
    const megabyte = Buffer.alloc(1 << 20);
    for (let i = 0; i < 512; i++) zeros.update(megabyte);
    const feed = new DigestFeed([bigFile, large], [undefined, undefined], SLOT);
    const digests = (feed as unknown as { digests: Promise<string>[] }).digests;
    let largeDone = false;
    void digests[1].then(() => {
      largeDone = true;
    });
    try {
      feed.end(1);
      // The pass can run only four slots ahead of the worker: it gets through only if the worker serves the ring
      // between the large file's chunks rather than after all of them.
      expect(await readAll(FedFile.open(bigFile, feed, 0, { waitForWorker: true, readAhead: false })!)).toEqual(big);
      expect(largeDone).toBe(false);
      expect(await feed.all()).toEqual([sha256(big), zeros.digest("hex")]);
    } finally {
      feed.close();
      fs.rmSync(large);
    }
  });

  it("leaves gzip files to the capture input and fails a digest whose file is gone", async () => {
    const gz = file("small.bin.gz", zlib.gzipSync(small));
    expect(FedFile.open(gz, null, 0, { waitForWorker: false, readAhead: true })).toBeNull();
    const gone = path.join(dir, "gone.bin");
    fs.copyFileSync(smallFile, gone);
    const feed = new DigestFeed([gone, smallFile], [undefined, undefined], SLOT);
    try {
      fs.rmSync(gone);
      await expect(feed.all()).rejects.toThrow(/ENOENT/);
      await expect(feed.all()).rejects.toMatchObject({ code: "TOOL_FAILED", context: { file: gone } });
    } finally {
      feed.close();
    }
  });
});
