// InputDigests: the SHA-256 of each input as stored, whatever share of its bytes the readers hand over (all, part
// after damage or a reader that ran ahead, none for gzip), hashed by the worker or on the reading thread, while the
// readers still read the file's exact bytes.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker as RealWorker } from "node:worker_threads";
import zlib from "node:zlib";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CaptureInput, type ChunkTap, readCapture } from "../input/index.js";
import { workersRetired } from "./hash-workers.js";
import { InputDigests } from "./input-digests.js";

/** Every worker thread started, so that a test can end one as a crash would. */
const started = vi.hoisted(() => [] as { terminate(): Promise<number> }[]);
vi.mock("node:worker_threads", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:worker_threads")>();
  class TrackedWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof RealWorker>) {
      super(...args);
      started.push(this);
    }
  }
  return { ...real, Worker: TrackedWorker };
});

beforeEach(() => {
  started.length = 0;
});

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const pcap = path.join(repo, "test/fixtures/capture/formats/same100_100-packets.pcap");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-digests-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SLOT = 1024;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
function file(name: string, bytes: Buffer): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, bytes);
  return target;
}

/** A tap that counts the bytes taken and the distinct buffers of its own that bytes were read into. */
function counted(tap: ChunkTap): { tap: ChunkTap; taken: () => number; buffers: () => number } {
  let taken = 0;
  const given = new Set<number>();
  const filled = new Set<number>();
  return {
    tap: {
      buffer: (position, bytes) => {
        const note = (buffer: Buffer | null) => {
          if (buffer !== null) given.add(buffer.byteOffset);
          return buffer;
        };
        const buffer = tap.buffer(position, bytes);
        return buffer instanceof Promise ? buffer.then(note) : note(buffer);
      },
      take: (position, bytes) => {
        taken += bytes.length;
        if (bytes.length > 0 && given.has(bytes.byteOffset)) filled.add(bytes.byteOffset);
        tap.take(position, bytes);
      },
      end: () => tap.end(),
    },
    taken: () => taken,
    buffers: () => filled.size,
  };
}

async function readAll(input: CaptureInput): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let chunk = await input.read(); chunk; chunk = await input.read()) parts.push(Buffer.from(chunk));
  await input.close();
  return Buffer.concat(parts);
}

describe("InputDigests of a capture read by readCapture", () => {
  it.each([
    ["read ahead", true],
    ["read on this thread", false],
  ])("hashes the chunks the reader read, in the ring's four reused shared slots (%s)", async (_, readAhead) => {
    const digests = new InputDigests([pcap], [undefined], { wait: true, slotBytes: 256 });
    try {
      const { tap, taken, buffers } = counted(digests.tap(0)!);
      const result = await readCapture(pcap, () => {}, { chunkBytes: 256, tap, readAhead });
      expect(result.packets).toBe(100);
      expect(taken()).toBe(fs.statSync(pcap).size);
      expect(buffers()).toBe(4);
      expect(await digests.all()).toEqual([sha256(fs.readFileSync(pcap))]);
    } finally {
      digests.close();
    }
  });

  it.each([
    ["read ahead", true],
    ["read on this thread", false],
  ])("reads the bytes after a damaged record itself (%s)", async (_, readAhead) => {
    const bytes = fs.readFileSync(pcap);
    let offset = 24;
    for (let i = 0; i < 10; i++) offset += 16 + bytes.readUInt32LE(offset + 8);
    bytes.writeUInt32LE(0x7fffffff, offset + 8);
    const damaged = file("damaged.pcap", bytes);
    const digests = new InputDigests([damaged], [undefined], { wait: true, slotBytes: 256 });
    try {
      const { tap, taken } = counted(digests.tap(0)!);
      const result = await readCapture(damaged, () => {}, { chunkBytes: 256, tap, readAhead });
      expect(result.complete).toBe(false);
      expect(taken()).toBeLessThan(bytes.length);
      expect(await digests.all()).toEqual([sha256(bytes)]);
    } finally {
      digests.close();
    }
  });

  it("hashes the compressed file of gzip input (the input hands none of its bytes over)", async () => {
    const gz = file("same.pcap.gz", zlib.gzipSync(fs.readFileSync(pcap)));
    const digests = new InputDigests([gz], [undefined]);
    try {
      const { tap, taken } = counted(digests.tap(0)!);
      expect((await readCapture(gz, () => {}, { tap })).packets).toBe(100);
      expect(taken()).toBe(0);
      expect(await digests.all()).toEqual([sha256(fs.readFileSync(gz))]);
    } finally {
      digests.close();
    }
  });

  it("reads the whole file when no reader feeds it, and fails for a missing file", async () => {
    const whole = new InputDigests([pcap], [undefined]);
    expect(await whole.all()).toEqual([sha256(fs.readFileSync(pcap))]);
    whole.close();
    const missing = new InputDigests([path.join(dir, "missing.pcap")], [undefined]);
    await expect(missing.all()).rejects.toThrow(/ENOENT/);
    missing.close();
  });

  it("gives no digest once closed, though its worker stops hashing part-way and idles until it ends", async () => {
    // 512 MiB of holes: longer to hash than the test waits, no disk space taken.
    const big = path.join(dir, "holes.bin");
    fs.closeSync(fs.openSync(big, "w"));
    fs.truncateSync(big, 512 << 20);
    const digests = new InputDigests([big], [undefined]);
    let settled = false;
    digests.all().then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    digests.close();
    await workersRetired();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    fs.rmSync(big);
  });
});

describe("InputDigests fed by passes that read several inputs", () => {
  const big = randomBytes(40 * SLOT + 37);
  const small = randomBytes(3 * SLOT);
  const [bigFile, smallFile] = [file("big.bin", big), file("small.bin", small)];

  it("hands the rest of a file to the worker once a pass runs ahead of it, and hashes all of it", async () => {
    const digests = new InputDigests([bigFile, smallFile], [undefined, undefined], { slotBytes: SLOT });
    try {
      // No event-loop turn between reads: the pass fills the four slots and then reads alone.
      const first = counted(digests.tap(0)!);
      const bigInput = await CaptureInput.open(bigFile, SLOT, { synchronous: true, tap: first.tap });
      expect(await readAll(bigInput)).toEqual(big);
      expect(first.buffers()).toBe(4);
      expect(digests.wants(0, 4 * SLOT)).toBe(false);
      // Three chunks fit the ring: all fed.
      const second = counted(digests.tap(1)!);
      expect(await readAll(await CaptureInput.open(smallFile, SLOT, { tap: second.tap }))).toEqual(small);
      expect([second.buffers(), second.taken()]).toEqual([3, small.length]);
      expect(await digests.all()).toEqual([sha256(big), sha256(small)]);
    } finally {
      digests.close();
    }
  });

  it("reads what it was not fed from the file itself, from where feeding stopped", async () => {
    const digests = new InputDigests([bigFile, smallFile], [undefined, undefined], { slotBytes: SLOT });
    try {
      const { tap, buffers } = counted(digests.tap(0)!);
      const input = await CaptureInput.open(bigFile, SLOT, { tap });
      for (let i = 0; i < 3; i++) await input.read();
      await input.close();
      // Three chunks handed out and the fourth read ahead, all into the ring: the worker reads from there on.
      expect(buffers()).toBe(4);
      expect(await digests.all()).toEqual([sha256(big), sha256(small)]);
    } finally {
      digests.close();
    }
  });

  it("hashes on the reading thread in first-pass mode, and in a worker what it was not fed", async () => {
    const digests = new InputDigests([bigFile, smallFile], [undefined, undefined], {
      place: "first-pass",
      slotBytes: SLOT,
    });
    try {
      // No ring: the chunks are hashed where they were read, and the digest is complete at the file's end.
      const first = counted(digests.tap(0)!);
      expect(await readAll(await CaptureInput.open(bigFile, SLOT, { synchronous: true, tap: first.tap }))).toEqual(big);
      expect([first.buffers(), first.taken()]).toEqual([0, big.length]);
      expect(digests.wants(0, big.length)).toBe(false);
      expect(started.length).toBe(0);
      const some = await CaptureInput.open(smallFile, SLOT, { synchronous: true, tap: digests.tap(1) });
      await some.read();
      await some.close();
      expect(await digests.all()).toEqual([sha256(big), sha256(small)]);
      // The small file was not read to its end: a worker hashed it.
      expect(started.length).toBe(1);
    } finally {
      digests.close();
    }
  });

  it("records given digests and takes none where none is wanted, hashing only the other inputs", async () => {
    const given = "ab".repeat(32);
    const none = new InputDigests([bigFile, smallFile], [given, null]);
    expect(none.tap(0)).toBeUndefined();
    expect(none.tap(1)).toBeUndefined();
    expect(await none.all()).toEqual([given, null]);
    expect(started.length).toBe(0);
    const one = new InputDigests([bigFile, smallFile], [given, undefined]);
    try {
      expect(one.wants(0, 0)).toBe(false);
      expect(await one.all()).toEqual([given, sha256(small)]);
    } finally {
      one.close();
    }
  });

  it.each([
    ["reads on alone", false],
    ["stops waiting for the ring", true],
  ])("lets a pass go on when the worker stops: it %s, and the digests fail", async (_, wait) => {
    const digests = new InputDigests([bigFile, smallFile], [undefined, undefined], { slotBytes: SLOT, wait });
    try {
      // Ended before it hashes anything, as a crash would: the ring fills and no slot is ever freed again.
      await started.splice(0)[0].terminate();
      const input = await CaptureInput.open(bigFile, SLOT, { synchronous: true, tap: digests.tap(0) });
      expect(await readAll(input)).toEqual(big);
      await expect(digests.all()).rejects.toThrow(/hashing worker stopped/);
    } finally {
      digests.close();
    }
  });

  it("reads the files it was not fed a chunk at a time each, in turn", async () => {
    // 512 MiB of zeros without writing them (a sparse file): hundreds of the worker's 1 MiB reads against the
    // big file's few.
    const large = path.join(dir, "large.bin");
    fs.writeFileSync(large, "");
    fs.truncateSync(large, 512 << 20);
    const zeros = createHash("sha256");
    const megabyte = Buffer.alloc(1 << 20);
    for (let i = 0; i < 512; i++) zeros.update(megabyte);
    const digests = new InputDigests([large, bigFile], [undefined, undefined], { slotBytes: SLOT });
    let largeDone = false;
    void digests.result(0).then(() => {
      largeDone = true;
    });
    try {
      // The big file's digest comes while the large one is still being read: the worker takes turns.
      expect(await digests.result(1)).toBe(sha256(big));
      expect(largeDone).toBe(false);
      expect(await digests.all()).toEqual([zeros.digest("hex"), sha256(big)]);
    } finally {
      digests.close();
      fs.rmSync(large);
    }
  });

  it("fails a digest whose file is gone as a tool failure naming the file", async () => {
    const gone = file("gone.bin", small);
    const digests = new InputDigests([gone, smallFile], [undefined, undefined]);
    try {
      fs.rmSync(gone);
      await expect(digests.all()).rejects.toThrow(/ENOENT/);
      await expect(digests.all()).rejects.toMatchObject({ code: "TOOL_FAILED", context: { file: gone } });
    } finally {
      digests.close();
    }
  });
});
