// OutputFile: pieces of every size land in order at their offsets, past the queue limit too; failures and discards
// leave no file behind (a full disk: /dev/full); the opt-in reserve, running CRC-32 and appended files.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { OutputFile } from "./output-file.js";

const dirs: string[] = [];
function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-output-file-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("OutputFile", () => {
  it("writes 80 MB of small, odd and larger-than-buffer pieces in order, then renames", async () => {
    const file = path.join(scratch(), "out.csv");
    const out = new OutputFile(file);
    const expected = crypto.createHash("sha256");
    const piece = new Uint8Array(3 << 20);
    let total = 0;
    for (let i = 0; total < 80 << 20; i++) {
      const length = i % 97 === 0 ? (1 << 20) + 1 + (i % 3) * 777_777 : 1 + ((i * 7919) % 300);
      for (let j = 0; j < length; j++) piece[j] = (i * 31 + j) & 255;
      expected.update(piece.subarray(0, length));
      out.write(piece, 0, length);
      // The piece is reused at once, as callers do: the file must hold what was passed at the time.
      piece.fill(0, 0, length);
      total += length;
    }
    expect(out.bytes).toBe(total);
    expect(fs.existsSync(file)).toBe(false);
    await out.commit();
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    const written = fs.readFileSync(file);
    expect(written.length).toBe(total);
    expect(crypto.createHash("sha256").update(written).digest("hex")).toBe(expected.digest("hex"));
  });

  it("leaves a reserve filled by writeAt, keeps the CRC-32 of what follows it, and moves whole files in", async () => {
    const dir = scratch();
    const file = path.join(dir, "out.zip");
    const out = new OutputFile(file, { reserve: 10, crc: true });
    expect(out.bytes).toBe(10);
    const data = Buffer.from(Array.from({ length: (5 << 20) + 3 }, (_, i) => (i * 7) & 255));
    // Small pieces, then one larger than a buffer (sent as a copy of its own): the CRC covers both, in order.
    for (let at = 0; at < 1 << 20; at += 333) out.write(data, at, Math.min(at + 333, 1 << 20));
    out.write(data, 1 << 20, data.length);
    expect(out.takeCrc()).toBe(zlib.crc32(data));
    expect(() => out.takeCrc()).toThrow(RangeError);
    expect(out.bytes).toBe(10 + data.length);
    expect(() => out.writeAt(Buffer.alloc(3), 8)).toThrow(RangeError);
    out.writeAt(Buffer.from("0123456789"), 0);
    // Moved in from their ends, a piece at a time: a partial last piece, whole pieces, an empty file.
    const tail = Buffer.from(Array.from({ length: (2 << 20) + 5 }, (_, i) => (i * 13) & 255));
    const small = Buffer.from("small");
    for (const [name, bytes] of [
      ["tail", tail],
      ["small", small],
      ["empty", Buffer.alloc(0)],
    ] as const)
      fs.writeFileSync(path.join(dir, name), bytes);
    out.write(Buffer.from("+"));
    expect(out.moveFileIn(path.join(dir, "tail"))).toBe(tail.length);
    expect(out.moveFileIn(path.join(dir, "small"))).toBe(small.length);
    expect(out.moveFileIn(path.join(dir, "empty"))).toBe(0);
    out.write(Buffer.from("end"));
    expect(fs.readdirSync(dir)).toEqual(["out.zip.partial"]);
    await out.commit();
    const written = fs.readFileSync(file);
    expect(written.subarray(0, 10).toString()).toBe("0123456789");
    expect(written.subarray(10, 10 + data.length).equals(data)).toBe(true);
    const moved = Buffer.concat([Buffer.from("+"), tail, small, Buffer.from("end")]);
    expect(written.subarray(10 + data.length).equals(moved)).toBe(true);
    // While a CRC-32 is kept, nothing is moved in (the pieces go out of order).
    const keeping = new OutputFile(path.join(dir, "crc.bin"), { crc: true });
    fs.writeFileSync(path.join(dir, "small"), small);
    expect(() => keeping.moveFileIn(path.join(dir, "small"))).toThrow(RangeError);
    await keeping.discard();
  });

  it("discards: the temporary file goes and the final name never appears", async () => {
    const file = path.join(scratch(), "out.csv");
    const out = new OutputFile(file);
    out.write(new Uint8Array(5 << 20).fill(65));
    await out.discard();
    expect(fs.readdirSync(path.dirname(file))).toEqual([]);
  });

  it("on a full disk: commit rejects with the write error, discard after a failed write leaves nothing", async () => {
    // The temporary name is a link to /dev/full, where every write fails with ENOSPC.
    const dir = scratch();
    const file = path.join(dir, "out.csv");
    fs.symlinkSync("/dev/full", `${file}.partial`);
    const out = new OutputFile(file);
    out.write(new Uint8Array(5 << 20).fill(65));
    out.write(new Uint8Array(100).fill(66));
    await expect(out.commit()).rejects.toMatchObject({
      code: "OUTPUT_FAILED",
      message: `${file}: could not be written at byte 0 (ENOSPC: no space left on device)`,
      context: { file },
    });
    expect(fs.readdirSync(dir)).toEqual([]);
    // Past the queue limit the failing write happens in write() itself; discard still cleans up.
    fs.symlinkSync("/dev/full", `${file}.partial`);
    const full = new OutputFile(file);
    expect(() => {
      for (let i = 0; i < 40; i++) full.write(new Uint8Array(1 << 20).fill(67));
    }).toThrow(/^.*out\.csv: could not be written at byte \d+ \(ENOSPC: no space left on device\)$/);
    await full.discard();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("names the output and the reason when it cannot be created", () => {
    const file = path.join(scratch(), "missing", "out.csv");
    expect(() => new OutputFile(file)).toThrow(
      expect.objectContaining({
        code: "OUTPUT_FAILED",
        message: `${file}: cannot be created (ENOENT: no such file or directory)`,
      }),
    );
  });
});
