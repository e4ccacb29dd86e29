// readCapture over every capture of the library (test/fixtures/capture) agrees with tshark and capinfos; gzip, damage,
// progress and cancellation behave as documented.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { ChunkTap } from "./capture-input.js";
import { readCapture } from "./read-capture.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const fixtures = path.join(repo, "test/fixtures/capture");
const expected = JSON.parse(fs.readFileSync(path.join(fixtures, "tshark-expected.json"), "utf8")) as Record<
  string,
  {
    packets: number;
    capinfosPackets: number | null;
    first: string | null;
    last: string | null;
    capturedBytes: number;
    originalBytes: number;
    linkTypes: number[];
    error: string | null;
    rows: string[] | null;
  }
>;
/** Where Tracemill deliberately differs from tshark, and why. */
const deliberate: Record<string, string> = {
  "formats/bad_pcap-ns_timestamp-invalid-nano.pcap":
    "tshark prints the raw fraction (1418145370.1000000000) where Tracemill carries it into the seconds; checked below",
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-capture-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const time = (t: { tsSec: number; tsNsec: number } | null) =>
  t === null ? null : `${t.tsSec}.${String(t.tsNsec).padStart(9, "0")}`;

describe("readCapture agrees with tshark and capinfos", () => {
  const names = Object.keys(expected).filter((name) => !(name in deliberate));
  it.each(names)("%s", async (name) => {
    const want = expected[name];
    const file = path.join(fixtures, name);
    if (want.error !== null && want.packets === 0) {
      await expect(readCapture(file, () => {})).rejects.toMatchObject({ code: "BAD_INPUT" });
      return;
    }
    const rows: string[] = [];
    const result = await readCapture(file, (p) => {
      rows.push(`${p.tsSec}.${String(p.tsNsec).padStart(9, "0")},${p.capturedLength},${p.originalLength}`);
    });
    expect(result.packets).toBe(want.packets);
    if (want.capinfosPackets !== null) expect(result.packets).toBe(want.capinfosPackets);
    expect(result.complete).toBe(want.error === null);
    expect(result.bytes).toBe(want.originalBytes);
    expect(result.capturedBytes).toBe(want.capturedBytes);
    expect([...new Set(result.info.interfaces.map((i) => i.linkType))].sort((a, b) => a - b)).toEqual(
      expect.arrayContaining(want.linkTypes),
    );
    if (want.rows !== null) {
      const timed = want.rows.filter((r) => !r.startsWith(","));
      const untimed = want.rows.length - timed.length;
      expect(rows.filter((_, i) => !want.rows![i].startsWith(","))).toEqual(
        timed.map((r) =>
          r
            .split(",")
            .slice(0, 3)
            .join(",")
            .replace(/^(\d+)\.(\d+)/, (_, s, f) => `${s}.${f.padEnd(9, "0")}`),
        ),
      );
      if (untimed === 0) {
        expect(time(result.first)).toBe(want.rows.map((r) => r.split(",")[0]).sort(byTime)[0] ?? null);
      }
    } else {
      expect(time(result.first)).toBe(want.first);
      expect(time(result.last)).toBe(want.last);
    }
  });

  it("reads all three packets of the file with nanosecond fractions of a second or more, carrying them", async () => {
    // tshark and capinfos read 3 packets (220 bytes); tshark prints the second's time as 1418145370.1000000000 and
    // its frame.time_delta as 1.000000001, i.e. 1418145369.999999999 + 1.000000001 = 1418145371.000000000. The
    // third's fraction 2147483648 ns is 2 s + 147483648 ns (tshark reads it as a negative 32-bit number).
    const file = path.join(fixtures, "formats/bad_pcap-ns_timestamp-invalid-nano.pcap");
    const times: string[] = [];
    const result = await readCapture(file, (p) => times.push(`${p.tsSec}.${String(p.tsNsec).padStart(9, "0")}`));
    expect(times).toEqual(["1418145369.999999999", "1418145371.000000000", "1418145372.147483648"]);
    expect([result.packets, result.bytes, result.complete, result.damage]).toEqual([3, 220, true, undefined]);
    expect(result.info.warnings).toEqual([
      {
        code: "timestamp-carried",
        count: 2,
        offset: 116,
        message:
          "timestamp fraction 1000000000 ns is not below one second: carried into the seconds (1418145370 s + 1000000000 ns = 1418145371.000000000 s)",
      },
    ]);
  });
});

function byTime(a: string, b: string): number {
  const [as, af] = a.split(".");
  const [bs, bf] = b.split(".");
  return Number(as) - Number(bs) || Number(af) - Number(bf);
}

describe("readCapture", () => {
  const pcapng = path.join(fixtures, "attacks/dvwa-web-attacks.pcapng");

  async function collect(file: string, options = {}) {
    const packets: string[] = [];
    const result = await readCapture(
      file,
      (p) => packets.push(`${p.tsSec}.${p.tsNsec} ${Buffer.from(p.data).toString("hex")}`),
      options,
    );
    return { packets, result };
  }

  it("reads gzip-compressed captures transparently, whatever their name", async () => {
    const plain = await collect(pcapng);
    const gz = zlib.gzipSync(fs.readFileSync(pcapng));
    for (const name of ["dvwa.pcapng.gz", "dvwa-gzipped.pcap"]) {
      fs.writeFileSync(path.join(tmp, name), gz);
      const read = await collect(path.join(tmp, name), { chunkBytes: 1000 });
      expect(read.packets).toEqual(plain.packets);
      expect(read.result.compressed).toBe(true);
      expect(read.result.complete).toBe(true);
    }
    expect(plain.packets).toHaveLength(64);
    expect(plain.result.compressed).toBe(false);
  });

  it("recognises ERF (no magic) even when the input comes in chunks smaller than a record", async () => {
    const erf = path.join(fixtures, "formats/erf_100-packets.erf");
    const whole = await collect(erf);
    const gz = path.join(tmp, "erf.gz");
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(erf)));
    for (const [file, chunkBytes] of [
      [erf, 10],
      [gz, 10],
    ] as const) {
      const small = await collect(file, { chunkBytes });
      expect(small.packets).toEqual(whole.packets);
      expect(small.result.format).toBe("erf");
    }
  });

  it("gives the same packets with small chunks and reports progress up to the file size", async () => {
    const plain = await collect(pcapng);
    const progress: number[] = [];
    const small = await collect(pcapng, {
      chunkBytes: 333,
      onProgress: (read: number, total: number) => progress.push(read / total),
    });
    expect(small.packets).toEqual(plain.packets);
    expect(progress.length).toBeGreaterThan(10);
    expect(progress.at(-1)).toBe(1);
  });

  it("gives the same packets and bytes read on this thread as read ahead, and reads on this thread on one core", async () => {
    const ahead = await collect(pcapng, { chunkBytes: 333, readAhead: true });
    const tapped: Buffer[] = [];
    const tap: ChunkTap = {
      buffer: () => null,
      take: (_position, bytes) => tapped.push(Buffer.from(bytes)),
      end: () => {},
    };
    const here = await collect(pcapng, { chunkBytes: 333, readAhead: false, tap });
    expect(here.packets).toEqual(ahead.packets);
    expect(Buffer.concat(tapped).equals(fs.readFileSync(pcapng))).toBe(true);

    // The default follows the cores the process may run on (`taskset` narrows them).
    const readSync = vi.spyOn(fs, "readSync");
    const cores = vi.spyOn(os, "availableParallelism");
    try {
      cores.mockReturnValue(2);
      expect((await collect(pcapng, { chunkBytes: 4096 })).packets).toEqual(ahead.packets);
      expect(readSync).not.toHaveBeenCalled();
      cores.mockReturnValue(1);
      expect((await collect(pcapng, { chunkBytes: 4096 })).packets).toEqual(ahead.packets);
      expect(readSync.mock.calls.length).toBeGreaterThan(1);
    } finally {
      readSync.mockRestore();
      cores.mockRestore();
    }
  });

  it("lets the event loop run while it reads on this thread: a cancel from a callback stops it", async () => {
    // Without the turns it gives, the abort scheduled below would run only after the whole file was read.
    const controller = new AbortController();
    let chunks = 0;
    const read = readCapture(pcapng, () => {}, {
      chunkBytes: 333,
      readAhead: false,
      signal: controller.signal,
      onProgress: () => {
        if (++chunks === 1) setImmediate(() => controller.abort());
      },
    });
    await expect(read).rejects.toMatchObject({ code: "CANCELLED" });
    expect(chunks).toBeLessThan(fs.statSync(pcapng).size / 333 / 2);
  });

  it("resolves incomplete, with the file, offset and reason, when the file is truncated", async () => {
    const bytes = fs.readFileSync(pcapng);
    const file = path.join(tmp, "truncated.pcapng");
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    const { packets, result } = await collect(file);
    expect(result.complete).toBe(false);
    expect(packets.length).toBeGreaterThan(50);
    expect(result.damage!.message).toMatch(
      new RegExp(`^${file}: damaged capture at byte \\d+ \\(after ${packets.length} packets\\): truncated block`),
    );
    expect(result.damage!.offset).toBeGreaterThan(0);
  });

  it("resolves incomplete when gzip data is cut short", async () => {
    const gz = zlib.gzipSync(fs.readFileSync(pcapng));
    const file = path.join(tmp, "cut.pcapng.gz");
    fs.writeFileSync(file, gz.subarray(0, gz.length - 2000));
    const { packets, result } = await collect(file, { chunkBytes: 4096 });
    expect(result.complete).toBe(false);
    expect(packets.length).toBeGreaterThan(0);
    expect(result.damage!.message).toMatch(/damaged|truncated|unexpected end/);
  });

  it("rejects a zero-length file, a non-capture named .pcap and a missing file with specific errors", async () => {
    const empty = path.join(tmp, "empty.pcap");
    fs.writeFileSync(empty, "");
    await expect(readCapture(empty, () => {})).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: `${empty}: the file is empty (0 bytes): not a capture`,
    });
    const html = path.join(tmp, "page.pcap");
    fs.writeFileSync(html, "<!doctype html><html><body>not a capture</body></html>\n");
    await expect(readCapture(html, () => {})).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: `${html}: not a capture file (starts with 0x3c21646f): pcap, pcapng and ERF are read`,
    });
    await expect(readCapture(path.join(tmp, "missing.pcap"), () => {})).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("rejects with CANCELLED when its signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(readCapture(pcapng, () => {}, { signal: controller.signal, chunkBytes: 1000 })).rejects.toMatchObject({
      code: "CANCELLED",
    });
  });
});
