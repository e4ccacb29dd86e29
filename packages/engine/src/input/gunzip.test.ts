// Every failure of the input itself — a gzip stream cut short or damaged, a gzip bomb, a read error — ends a read with
// one line naming the file, where (compressed and inflated offsets, packets read) and why; never as complete.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GzipInput, gunzipToFile, INFLATE_LIMITS } from "./gunzip.js";
import { readCapture } from "./read-capture.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const pcapng = path.join(repo, "test/fixtures/capture/attacks/dvwa-web-attacks.pcapng");
const plain = fs.readFileSync(pcapng);
const gz = zlib.gzipSync(plain);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-gunzip-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, bytes: Uint8Array): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** What zlib inflates of a stream cut short before it fails: the offset a message must name. */
function inflatesBeforeFailing(bytes: Uint8Array): number {
  return zlib.gunzipSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
}

async function read(file: string, options = {}) {
  let packets = 0;
  const result = await readCapture(file, () => packets++, options);
  return { packets, result };
}

describe("gzip input that fails part-way", () => {
  it("cut short: incomplete, naming the compressed end, the inflated bytes and the packets read", async () => {
    const cut = gz.subarray(0, gz.length - 2000);
    const file = write("cut.pcapng.gz", cut);
    const { packets, result } = await read(file, { chunkBytes: 4096 });
    expect(result.complete).toBe(false);
    expect(packets).toBeGreaterThan(0);
    const inflated = inflatesBeforeFailing(cut);
    expect(result.damage).toEqual({
      offset: inflated,
      message: `${file}: gzip input at compressed byte ${cut.length} of ${cut.length}, inflated byte ${inflated} (after ${packets} packets): the gzip data ends early, cut short (unexpected end of file)`,
    });
  });

  it("damaged in the middle or in its checksum: incomplete, even when every packet was read", async () => {
    const flipped = Buffer.from(gz);
    for (let i = 0; i < 16; i++) flipped[Math.floor(gz.length / 2) + i] ^= 0x5a;
    const middle = await read(write("flipped.pcapng.gz", flipped), { chunkBytes: 1000 });
    expect(middle.result.complete).toBe(false);
    expect(middle.result.damage?.message).toMatch(
      /flipped\.pcapng\.gz: gzip input (?:at compressed byte|between compressed bytes \d+ and) \d+ of \d+, inflated byte \d+ \(after \d+ packets\): the gzip data is damaged \(.+\)$/,
    );
    const crc = Buffer.from(gz);
    crc[gz.length - 8] ^= 1;
    // The output of zlib's failing step is lost with its error: with small chunks, most packets come before.
    const trailer = await read(write("crc.pcapng.gz", crc), { chunkBytes: 1000 });
    expect(trailer.result.complete).toBe(false);
    expect(trailer.packets).toBeGreaterThan(50);
    expect(trailer.result.damage?.message).toMatch(
      new RegExp(
        `crc\\.pcapng\\.gz: gzip input between compressed bytes \\d+ and ${gz.length} of ${gz.length}, inflated byte \\d+ \\(after ${trailer.packets} packets\\): the gzip data is damaged \\(incorrect data check\\)$`,
      ),
    );
  });

  it("damaged before any packet: rejected with BAD_INPUT", async () => {
    const header = Buffer.from(gz);
    header[3] = 0xff; // reserved flag bits
    const file = write("header.pcapng.gz", header);
    await expect(readCapture(file, () => {})).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: `${file}: gzip input between compressed bytes 0 and ${gz.length} of ${gz.length}, inflated byte 0: the gzip data is damaged (unknown header flags set)`,
    });
  });

  it("a bomb: refused once it inflates past the ratio, after the packets before", async () => {
    // A pcap header, then zeros (empty 16-byte records) in 1 MiB gzip members: a 1000:1 stream of 96 MiB.
    const header = zlib.gzipSync(Buffer.from("d4c3b2a1020004000000000000000000ffff000001000000", "hex"));
    const zeros = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    const file = write("bomb.pcap.gz", Buffer.concat([header, ...Array<Buffer>(96).fill(zeros)]));
    const { packets, result } = await read(file);
    expect(result.complete).toBe(false);
    // Refused at the first chunk that takes it past 64 MiB at a ratio above 200: every packet before was delivered.
    const delivered = result.damage!.offset;
    expect(delivered).toBeGreaterThanOrEqual(INFLATE_LIMITS.ratioFrom);
    expect(delivered).toBeLessThanOrEqual(INFLATE_LIMITS.ratioFrom + 1024 * 1024);
    expect(packets).toBe(Math.floor((delivered - 24) / 16));
    expect(result.damage?.message).toMatch(
      /bomb\.pcap\.gz: gzip input (?:at compressed byte|between compressed bytes \d+ and) \d+ of \d+, inflated byte \d+ \(after \d+ packets\): it inflates more than 200 times its compressed size past 64 MiB \(a gzip bomb, not a capture\)$/,
    );
  });

  it("stops at the absolute limit whatever the ratio", async () => {
    const file = write("plain.pcapng.gz", gz);
    const input = new GzipInput(file, gz.length, 1024, { ratioFrom: 0, maxRatio: 1e9, maxBytes: 10_000 });
    let inflated = 0;
    const error = await (async () => {
      for (;;) {
        const chunk = await input.read();
        if (chunk === null) return undefined;
        inflated += chunk.length;
      }
    })().catch((e: unknown) => e);
    input.close();
    expect(inflated).toBeLessThanOrEqual(10_000);
    expect(error).toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringMatching(
        /^gzip input (?:at compressed byte|between compressed bytes \d+ and) \d+ of \d+, inflated byte \d+: it inflates past 10000 bytes, the limit for a gzip input/,
      ),
    });
  });
});

describe("gunzipToFile", () => {
  it("inflates a gzip file exactly, and leaves nothing behind when it fails", async () => {
    const target = path.join(tmp, "out.pcapng");
    await gunzipToFile(write("whole.pcapng.gz", gz), target);
    expect(fs.readFileSync(target).equals(plain)).toBe(true);
    const cut = write("cut2.pcapng.gz", gz.subarray(0, 1000));
    const failed = path.join(tmp, "failed.pcapng");
    await expect(gunzipToFile(cut, failed, { name: "upload.pcapng.gz" })).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringMatching(
        /^upload\.pcapng\.gz: gzip input at compressed byte 1000 of 1000, inflated byte \d+: the gzip data ends early/,
      ),
    });
    expect(fs.existsSync(failed)).toBe(false);
    await expect(gunzipToFile(path.join(tmp, "missing.gz"), failed)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("read errors", () => {
  it("end a plain read at the failing offset, naming the error", async () => {
    const original = fs.readSync;
    let calls = 0;
    const readSync = vi.spyOn(fs, "readSync").mockImplementation((...args: Parameters<typeof fs.readSync>) => {
      if (++calls === 3) throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
      return original(...args);
    });
    try {
      const { packets, result } = await read(pcapng, { chunkBytes: 4096, readAhead: false });
      expect(result.complete).toBe(false);
      expect(result.damage?.message).toBe(
        `${pcapng}: read error at byte 8192 (after ${packets} packets): EIO: i/o error, read`,
      );
    } finally {
      readSync.mockRestore();
    }
  });

  it("name a directory or a missing file", async () => {
    await expect(readCapture(tmp, () => {})).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: `${tmp}: not a regular file or a pipe`,
    });
    await expect(readCapture(path.join(tmp, "none.pcap"), () => {})).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: `${path.join(tmp, "none.pcap")}: cannot open the file (ENOENT)`,
    });
  });
});
