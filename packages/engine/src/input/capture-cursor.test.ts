// The pull cursor gives the packets readCapture gives, interleaves two inputs by timestamp, and reports damage.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type CaptureCursor, openCaptureCursor } from "./capture-cursor.js";
import { readCapture } from "./read-capture.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cursor-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const key = (p: { tsSec: number; tsNsec: number }) => p.tsSec * 1e9 + p.tsNsec;

async function drain(cursor: CaptureCursor): Promise<string[]> {
  const out: string[] = [];
  for (;;) {
    const p = cursor.next();
    if (p !== null) {
      out.push(`${p.tsSec}.${p.tsNsec}/${p.capturedLength}`);
      continue;
    }
    if (!(await cursor.fill())) break;
  }
  return out;
}

describe("openCaptureCursor", () => {
  it("gives the same packets as readCapture, with small chunks too", async () => {
    const file = path.join(fixtures, "attacks/dvwa-web-attacks.pcapng");
    const expected: string[] = [];
    await readCapture(file, (p) => expected.push(`${p.tsSec}.${p.tsNsec}/${p.capturedLength}`));
    for (const chunkBytes of [undefined, 100]) {
      const cursor = await openCaptureCursor(file, { chunkBytes });
      expect(await drain(cursor)).toEqual(expected);
      expect([cursor.done, cursor.damage, cursor.packetCount]).toEqual([true, null, 64]);
      expect(cursor.info.format).toBe("pcapng");
      await cursor.close();
    }
  });

  it("merges two captures by timestamp with synchronous next() and async fill()", async () => {
    const a = await openCaptureCursor(path.join(fixtures, "attacks/eternalblue-scan.pcap"), { chunkBytes: 512 });
    const b = await openCaptureCursor(path.join(fixtures, "formats/pcap-be-us_pptp.pcap"), { chunkBytes: 512 });
    const heads = [a, b].map((c) => ({ cursor: c, packet: null as { tsSec: number; tsNsec: number } | null }));
    const merged: number[] = [];
    for (;;) {
      for (const head of heads) {
        while (head.packet === null) {
          const p = head.cursor.next();
          if (p !== null) head.packet = { tsSec: p.tsSec, tsNsec: p.tsNsec };
          else if (!(await head.cursor.fill())) break;
        }
      }
      const live = heads.filter((h) => h.packet !== null);
      if (live.length === 0) break;
      const earliest = live.reduce((x, y) => (key(y.packet!) < key(x.packet!) ? y : x));
      merged.push(key(earliest.packet!));
      earliest.packet = null;
    }
    expect(merged).toHaveLength(23 + 23);
    expect(merged).toEqual([...merged].sort((x, y) => x - y));
    await Promise.all([a.close(), b.close()]);
  });

  it("ends at damage with the packets before it, and rejects a file that is not a capture", async () => {
    const bytes = fs.readFileSync(path.join(fixtures, "attacks/eternalblue-scan.pcap"));
    const file = path.join(tmp, "cut.pcap");
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    const cursor = await openCaptureCursor(file, { chunkBytes: 700 });
    expect(await drain(cursor)).toHaveLength(22);
    expect(cursor.done).toBe(true);
    expect(cursor.damage?.message).toMatch(
      new RegExp(`^${file}: damaged capture at byte \\d+ \\(after 22 packets\\): truncated`),
    );
    await cursor.close();
    const text = path.join(tmp, "notes.pcap");
    fs.writeFileSync(text, "hello, this is text and not a capture at all\n");
    await expect(openCaptureCursor(text)).rejects.toMatchObject({ code: "BAD_INPUT" });
  });
});
