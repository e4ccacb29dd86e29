// The hashing worker fed by the passes: whatever share of the file the passes hand over (all, part, none), the
// digest is of the whole file, and the passes still read the file's exact bytes.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it, vi } from "vitest";
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

  it("hands the rest of a file to the worker once a pass runs ahead of it, and hashes all of it", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT);
    try {
      // No event-loop turn between reads: the pass fills the four slots and then reads alone.
      const spy = vi.spyOn(feed, "end");
      expect(await readAll(FedFile.open(bigFile, feed, 0, { readAhead: false })!)).toEqual(big);
      expect(spy).toHaveBeenCalledWith(0);
      expect(feed.wants(0, 4 * SLOT)).toBe(false);
      // Three chunks fit the ring: all fed, and the worker waits for more until told the file ended.
      expect(await readAll(FedFile.open(smallFile, feed, 1, { readAhead: true })!)).toEqual(small);
      expect(feed.wants(1, small.length)).toBe(true);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(await feed.all()).toEqual([sha256(big), sha256(small)]);
    } finally {
      feed.close();
    }
  });

  it("reads what it was not fed from the file itself, from where feeding stopped", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT);
    try {
      const input = FedFile.open(bigFile, feed, 0, { readAhead: true })!;
      for (let i = 0; i < 3; i++) await input.read();
      await input.close();
      // Three chunks handed out and the fourth read ahead, all into the ring: the worker reads from there on.
      expect(feed.wants(0, 4 * SLOT)).toBe(true);
      expect(await feed.all()).toEqual([sha256(big), sha256(small)]);
    } finally {
      feed.close();
    }
  });

  it("hashes on the reading thread in first-pass mode, and in a worker what it was not fed", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT, "first-pass");
    try {
      // Read ahead is refused: the chunks are hashed where they were read.
      const input = FedFile.open(bigFile, feed, 0, { readAhead: true })!;
      expect(await readAll(input)).toEqual(big);
      expect(feed.wants(0, big.length)).toBe(false);
      const some = FedFile.open(smallFile, feed, 1, { readAhead: false })!;
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

  it("lets a pass read on alone when the worker stops, and fails the digests", async () => {
    const feed = new DigestFeed([bigFile, smallFile], [undefined, undefined], SLOT);
    // Stopped before it hashes anything: the ring fills and no slot is ever freed again.
    feed.close();
    expect(await readAll(FedFile.open(bigFile, feed, 0, { readAhead: false })!)).toEqual(big);
    await expect(feed.all()).rejects.toThrow(/hashing worker stopped/);
  });

  it("reads the files it was not fed a chunk at a time each, in turn", async () => {
    // 512 MiB of zeros without writing them (a sparse file): hundreds of the worker's 1 MiB reads against the
    // small file's few.
    const large = path.join(dir, "large.bin");
    fs.writeFileSync(large, "");
    fs.truncateSync(large, 512 << 20);
    const zeros = createHash("sha256");
    const megabyte = Buffer.alloc(1 << 20);
    for (let i = 0; i < 512; i++) zeros.update(megabyte);
    const feed = new DigestFeed([large, bigFile], [undefined, undefined], SLOT);
    const digests = (feed as unknown as { digests: Promise<string>[] }).digests;
    let largeDone = false;
    void digests[0].then(() => {
      largeDone = true;
    });
    try {
      feed.end(0);
      feed.end(1);
      // The big file's digest comes while the large one is still being read: the worker takes turns.
      expect(await digests[1]).toBe(sha256(big));
      expect(largeDone).toBe(false);
      expect(await feed.all()).toEqual([zeros.digest("hex"), sha256(big)]);
    } finally {
      feed.close();
      fs.rmSync(large);
    }
  });

  it("leaves gzip files to the capture input and fails a digest whose file is gone", async () => {
    const gz = file("small.bin.gz", zlib.gzipSync(small));
    expect(FedFile.open(gz, null, 0, { readAhead: true })).toBeNull();
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
