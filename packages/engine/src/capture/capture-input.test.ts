// CaptureInput: how long a chunk it returned stays untouched while the next one is read ahead.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CaptureInput } from "./capture-input.js";

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
  it("keeps a chunk untouched until the second read after it, while the next one is read ahead", async () => {
    // A reader pushes chunk n+1 while the tail of chunk n may still be waiting in its window (a record spanning both).
    const input = await CaptureInput.open(numbered(8), 64);
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
});
