// CaptureInput: how long a chunk it returned stays untouched while the next one is read (ahead or on this thread),
// and a tap's buffer while the tap (the hashing worker) still reads it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CaptureInput, type ChunkTap } from "./capture-input.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-input-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A file of `chunks` chunks of 64 bytes, each byte its chunk's number. */
function numbered(chunks: number): string {
  const file = path.join(tmp, `numbered-${chunks}.bin`);
  const bytes = new Uint8Array(64 * chunks);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i >> 6;
  fs.writeFileSync(file, bytes);
  return file;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("CaptureInput", () => {
  it.each([
    ["read ahead", false],
    ["read on this thread", true],
  ])("keeps a chunk untouched until the second read after it (%s)", async (_, synchronous) => {
    // A reader pushes chunk n+1 while the tail of chunk n may still be waiting in its window (a record spanning both).
    const input = await CaptureInput.open(numbered(8), 64, { synchronous });
    try {
      const seen: Uint8Array[] = [];
      for (let n = 0; n < 8; n++) {
        const chunk = await input.read();
        expect(chunk?.length).toBe(64);
        seen.push(chunk!);
        await settled();
        expect([...new Set(chunk)]).toEqual([n]);
        if (n > 0) expect([...new Set(seen[n - 1])]).toEqual([n - 1]);
      }
      expect(await input.read()).toBeNull();
      expect(input.fileBytesRead).toBe(512);
    } finally {
      await input.close();
    }
  });

  it.each([
    ["read ahead", false],
    ["read on this thread", true],
  ])(
    "reads into a tap's buffer only once the tap released it, and keeps returned chunks as long (%s)",
    async (_, synchronous) => {
      // A slow hashing worker: its three buffers are given out in turn, each one again only once the bytes read into
      // it were hashed, 20 ms after they were taken; they must not change until then.
      const pool = [0, 1, 2].map(() => Buffer.alloc(64));
      let turn = 0;
      const handed: { buffer: Buffer; copy: Buffer }[] = [];
      let overwritten = 0;
      let ended = false;
      const waits = new Map<Buffer, Promise<void>>();
      const tap: ChunkTap = {
        buffer: () => {
          const buffer = pool[turn++ % 3];
          const wait = waits.get(buffer);
          return wait ? wait.then(() => buffer) : buffer;
        },
        take: (_position, bytes) => {
          if (bytes.length === 0) return;
          const buffer = pool.find((b) => b.buffer === bytes.buffer && b.byteOffset === bytes.byteOffset)!;
          const taken = { buffer, copy: Buffer.from(bytes) };
          handed.push(taken);
          waits.set(
            buffer,
            new Promise((resolve) =>
              setTimeout(() => {
                if (!taken.copy.equals(buffer.subarray(0, taken.copy.length))) overwritten++;
                resolve();
              }, 20),
            ),
          );
        },
        end: () => {
          ended = true;
        },
      };
      const input = await CaptureInput.open(numbered(8), 64, { tap, synchronous });
      try {
        const seen: Uint8Array[] = [];
        for (let n = 0; n < 8; n++) {
          const chunk = await input.read();
          seen.push(chunk!);
          expect([...new Set(chunk)]).toEqual([n]);
          if (n > 0) expect([...new Set(seen[n - 1])]).toEqual([n - 1]);
        }
        expect(await input.read()).toBeNull();
      } finally {
        await input.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(handed.map(({ copy }) => copy[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(new Set(handed.map(({ buffer }) => buffer)).size).toBe(3);
      expect(overwritten).toBe(0);
      expect(ended).toBe(true);
    },
  );

  it.each([
    ["read ahead", false, 2],
    ["read on this thread", true, 1],
  ])(
    "reads into fewer buffers when the caller copies what it keeps of a chunk (%s)",
    async (_, synchronous, buffers) => {
      const input = await CaptureInput.open(numbered(8), 64, { synchronous, copiesTails: true });
      try {
        const seen: Uint8Array[] = [];
        for (let n = 0; n < 8; n++) {
          const chunk = (await input.read())!;
          expect([...new Set(chunk)]).toEqual([n]);
          if (!seen.some((s) => s.buffer === chunk.buffer && s.byteOffset === chunk.byteOffset)) seen.push(chunk);
        }
        expect(seen.length).toBe(buffers);
      } finally {
        await input.close();
      }
    },
  );

  it("reads a pipe in order, each chunk filled however the writer splits its bytes, and drains it for the tap", async () => {
    // The writer sends 520 numbered bytes in pieces of 7 with pauses: chunks of 64 still come whole, in order.
    const fifo = pipeFrom(520, 7);
    const taken: number[] = [];
    const tap: ChunkTap = {
      buffer: () => null,
      take: (_position, bytes) => taken.push(...bytes),
      end: () => {},
    };
    const input = await CaptureInput.open(fifo.path, 64, { tap });
    try {
      expect(input.streamed).toBe(true);
      expect(input.fileSize).toBe(0);
      const first = await input.read();
      expect([...first!]).toEqual(Array.from({ length: 64 }, (_, i) => i & 255));
      const second = await input.read();
      expect([...second!]).toEqual(Array.from({ length: 64 }, (_, i) => (64 + i) & 255));
      // The caller stops here (damage, say): the rest still reaches the tap, and the writer is not cut off.
      await input.drain();
      expect(input.fileBytesRead).toBe(520);
      expect(taken).toEqual(Array.from({ length: 520 }, (_, i) => i & 255));
    } finally {
      await input.close();
    }
    expect(await fifo.exit).toBe(0);
  });

  it("refuses gzip data on a pipe, saying how to give it", async () => {
    const fifo = pipeFrom(0, 0, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
    const input = await CaptureInput.open(fifo.path, 64);
    try {
      await expect(input.read()).rejects.toThrow(/gzip-compressed data on a pipe: decompress it before the pipe/);
    } finally {
      await input.close();
      fifo.child.kill();
    }
  });
});

/** A FIFO that a child process fills with `count` numbered bytes (or `bytes`), `piece` bytes at a time. */
function pipeFrom(
  count: number,
  piece: number,
  bytes?: Buffer,
): { path: string; child: ChildProcess; exit: Promise<number | null> } {
  const file = path.join(tmp, `fifo-${count}-${piece}-${bytes?.length ?? 0}`);
  expect(spawnSync("mkfifo", [file]).status).toBe(0);
  const data = bytes ?? Buffer.from(Array.from({ length: count }, (_, i) => i & 255));
  const script = `
    const fs = require("fs");
    const fd = fs.openSync(process.argv[1], "w");
    const data = Buffer.from(process.argv[2], "hex");
    const piece = Number(process.argv[3]) || data.length;
    (async () => {
      for (let at = 0; at < data.length; at += piece) {
        fs.writeSync(fd, data.subarray(at, at + piece));
        await new Promise((r) => setTimeout(r, 1));
      }
      fs.closeSync(fd);
    })();`;
  const child = spawn(process.execPath, ["-e", script, file, data.toString("hex"), String(piece)], { stdio: "ignore" });
  return { path: file, child, exit: new Promise((resolve) => child.on("exit", resolve)) };
}
