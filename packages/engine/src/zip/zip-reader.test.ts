// Zips made by Info-ZIP (stored, deflated, bzip2, and one whose central directory is larger than the reader's 1 MiB
// blocks) read back as Info-ZIP's unzip reads them: the entries in the directory's order with the methods zipinfo
// names, every entry's bytes as `unzip -p` gives them. Damage is refused in one line naming the zip as the caller
// names it and the entry: a CRC-32 or size the bytes do not match, an entry past the zip's end, data that does not
// inflate, a method not read.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TracemillError } from "@tracemill/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../../core/src/testing/index.js";
import { entryBytes, entryChunks, listZip, storedRegion, type ZipEntryPlace } from "./index.js";

let dir = "";
let zip = "";

const unzipped = (file: string, entry: string) => execFileSync("unzip", ["-p", file, entry], { maxBuffer: 1 << 26 });

/** Each entry's method as zipinfo names it ("stor", "defX", "bzp2"…). */
function zipinfoMethods(file: string): Map<string, string> {
  const lines = execFileSync("zipinfo", ["-l", file], { encoding: "utf8" }).split("\n");
  const methods = new Map<string, string>();
  for (const line of lines.filter((line) => /^[-d]r/.test(line))) {
    const fields = line.trim().split(/\s+/);
    methods.set(fields.at(-1) as string, fields[6]);
  }
  return methods;
}

/** Reads `name` from `file` with a fresh handle, as the zip's callers do. */
async function withEntry<T>(file: string, name: string, read: (h: fs.promises.FileHandle, e: ZipEntryPlace) => T) {
  const entry = (await listZip(file, "parts/z.zip")).find((found) => found.name === name) as ZipEntryPlace;
  const handle = await fs.promises.open(file, "r");
  try {
    return await read(handle, entry);
  } finally {
    await handle.close();
  }
}

/** Where a header with this signature and this name starts in the zip's bytes (local 0x04034b50, central 0x02014b50). */
function headerOf(bytes: Buffer, signature: number, name: string): number {
  const nameAt = signature === 0x04034b50 ? 30 : 46;
  for (let at = bytes.indexOf("PK"); at >= 0; at = bytes.indexOf("PK", at + 1)) {
    if (bytes.readUInt32LE(at) !== signature) continue;
    const length = bytes.readUInt16LE(at + (signature === 0x04034b50 ? 26 : 28));
    if (bytes.toString("latin1", at + nameAt, at + nameAt + length) === name) return at;
  }
  throw new Error(`no header for ${name}`);
}

/** A copy of the zip with `change` made to its bytes. */
function changed(name: string, change: (bytes: Buffer) => void): string {
  const bytes = fs.readFileSync(zip);
  change(bytes);
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-zip-"));
  const random = seededRandom(3);
  // 3 MiB of digits: deflated to over 1 MiB, so both the read and the inflated chunks cross 1 MiB.
  const lines: string[] = [];
  for (let size = 0; size < 3 << 20; size += 33) {
    lines.push(Array.from({ length: 32 }, () => Math.floor(random() * 10)).join(""));
  }
  fs.writeFileSync(path.join(dir, "text.csv"), `${lines.join("\n")}\n`);
  fs.writeFileSync(path.join(dir, "small.txt"), "hello\n");
  fs.writeFileSync(path.join(dir, "empty.txt"), "");
  fs.writeFileSync(path.join(dir, "stored.bin"), Buffer.from(Array.from({ length: 5000 }, () => random() * 256)));
  zip = path.join(dir, "z.zip");
  execFileSync("zip", ["-q", "-0", zip, "stored.bin", "empty.txt"], { cwd: dir });
  execFileSync("zip", ["-q", "-9", zip, "text.csv", "small.txt"], { cwd: dir });
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the zip reader", () => {
  it("lists the central directory in its order and reads every entry as unzip does, stored or deflated", async () => {
    const entries = await listZip(zip, "parts/z.zip");
    const listing = execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).trim().split("\n");
    expect(entries.map((entry) => entry.name)).toEqual(listing);
    const methods = zipinfoMethods(zip);
    expect(methods.get("stored.bin")).toBe("stor");
    expect(methods.get("text.csv")).toMatch(/^def/);
    const handle = await fs.promises.open(zip, "r");
    try {
      for (const entry of entries) {
        expect(entry.method, entry.name).toBe(methods.get(entry.name) === "stor" ? 0 : 8);
        const expected = unzipped(zip, entry.name);
        expect(entry.size).toBe(expected.length);
        expect((await entryBytes(handle, entry, "parts/z.zip")).equals(expected), entry.name).toBe(true);
      }
      const text = entries.find((entry) => entry.name === "text.csv") as ZipEntryPlace;
      expect(text.compressedSize).toBeGreaterThan(1 << 20);
      const chunks: Buffer[] = [];
      for await (const chunk of entryChunks(handle, text, "parts/z.zip")) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(2);
      expect(Buffer.concat(chunks).equals(fs.readFileSync(path.join(dir, "text.csv")))).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it("reads a central directory larger than its 1 MiB blocks, in order", async () => {
    const many = path.join(dir, "many");
    fs.mkdirSync(many);
    const names = Array.from({ length: 6000 }, (_, i) => `${"n".repeat(170)}-${String(i).padStart(5, "0")}`);
    for (const name of names) fs.writeFileSync(path.join(many, name), "");
    const manyZip = path.join(dir, "many.zip");
    execFileSync("zip", ["-q", "-0", "-r", manyZip, "."], { cwd: many });
    const listing = execFileSync("unzip", ["-Z1", manyZip], { encoding: "utf8", maxBuffer: 1 << 24 }).trim();
    const entries = await listZip(manyZip, "many.zip");
    expect(entries.map((entry) => entry.name)).toEqual(listing.split("\n"));
    expect(new Set(entries.map((entry) => entry.name))).toEqual(new Set(names));
    // 46 bytes of central header per entry besides its name, Info-ZIP's extra fields aside.
    expect(entries.length * (46 + names[0].length)).toBeGreaterThan(1 << 20);
  });

  it("refuses a CRC-32 or size the bytes do not match, an entry cut off, data that does not inflate, a method", async () => {
    // The central directory's CRC-32 of small.txt, and its size of text.csv, one less than the truth.
    const badCrc = changed("crc.zip", (bytes) => {
      const at = headerOf(bytes, 0x02014b50, "small.txt") + 16;
      bytes.writeUInt32LE(bytes.readUInt32LE(at) ^ 1, at);
    });
    await expect(withEntry(badCrc, "small.txt", (h, e) => entryBytes(h, e, "parts/z.zip"))).rejects.toThrow(
      "parts/z.zip: small.txt is damaged: its bytes do not match the CRC-32 the zip records",
    );
    const short = changed("short.zip", (bytes) => {
      const at = headerOf(bytes, 0x02014b50, "text.csv") + 24;
      bytes.writeUInt32LE(bytes.readUInt32LE(at) - 1, at);
    });
    const given = await withEntry(short, "text.csv", async (handle, entry) => {
      let bytes = 0;
      await expect(
        (async () => {
          for await (const chunk of entryChunks(handle, entry, "parts/z.zip")) bytes += chunk.length;
        })(),
      ).rejects.toThrow("parts/z.zip: text.csv is damaged: its bytes do not match the CRC-32 the zip records");
      return { bytes, size: entry.size };
    });
    expect(given.bytes).toBeLessThanOrEqual(given.size);

    // stored.bin said to run on past the zip's end: both its sizes in the central directory made 2 GiB.
    const cut = changed("cut.zip", (bytes) => {
      const at = headerOf(bytes, 0x02014b50, "stored.bin");
      bytes.writeUInt32LE(0x7fffffff, at + 20);
      bytes.writeUInt32LE(0x7fffffff, at + 24);
    });
    await expect(withEntry(cut, "stored.bin", (h, e) => entryBytes(h, e, "parts/z.zip"))).rejects.toThrow(
      "parts/z.zip: stored.bin is cut off: the zip ends inside it",
    );

    // The first deflate block made of the reserved type (BFINAL 1, BTYPE 11).
    const noInflate = changed("inflate.zip", (bytes) => {
      const at = headerOf(bytes, 0x04034b50, "text.csv");
      bytes[at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28)] = 0x07;
    });
    await expect(withEntry(noInflate, "text.csv", (h, e) => entryBytes(h, e, "parts/z.zip"))).rejects.toThrow(
      /^parts\/z\.zip: text\.csv cannot be inflated \(.*invalid block type/,
    );
    await expect(withEntry(zip, "text.csv", (h, e) => storedRegion(h, e, "parts/z.zip"))).rejects.toThrow(
      "parts/z.zip: text.csv is compressed (method 8); it is read in place only when stored",
    );

    const bzip2 = path.join(dir, "bzip2.zip");
    execFileSync("zip", ["-q", "-Z", "bzip2", bzip2, "text.csv"], { cwd: dir });
    expect(zipinfoMethods(bzip2).get("text.csv")).toBe("bzp2");
    await expect(withEntry(bzip2, "text.csv", (h, e) => entryBytes(h, e, "parts/z.zip"))).rejects.toThrow(
      "parts/z.zip: text.csv uses compression method 12, which is not read here",
    );
  });

  it("refuses a file that is no zip, naming it as the caller does, with the code of a bad input", async () => {
    const notZip = path.join(dir, "not.zip");
    fs.writeFileSync(notZip, "not a zip at all, not even an end record");
    const error = await listZip(notZip, "parts/not.zip").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TracemillError);
    expect((error as TracemillError).message).toMatch(/^parts\/not\.zip: not a readable zip \(.+\)$/);
    expect((error as TracemillError).code).toBe("BAD_INPUT");
    expect((error as TracemillError).context.file).toBe("parts/not.zip");
  });
});
