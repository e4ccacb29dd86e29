// The atomic capture writer: files tshark and capinfos accept, comments and interface names kept, rename on
// close, nothing left on abort or a failed write (the first error kept), backpressure through drain().
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PcapWriter } from "@tracemill/core/capture";
import { afterAll, describe, expect, it, vi } from "vitest";
import { readCapture } from "../input/read-capture.js";
import { openCaptureWriter } from "./capture-writer.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-writer-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const input = path.join(fixtures, "attacks/dvwa-web-attacks.pcapng");

function tshark(args: string[]): string {
  const run = spawnSync("tshark", args, { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

async function copy(file: string, options: Parameters<typeof openCaptureWriter>[1], comment?: (i: number) => string[]) {
  const writer = await openCaptureWriter(file, options);
  await readCapture(input, (packet) => {
    writer.write(packet, comment?.(packet.index));
  });
  await writer.close();
  return writer;
}

describe("openCaptureWriter", () => {
  it("writes pcap (µs and ns) that tshark and capinfos read with the same packets", async () => {
    const original = tshark([
      "-r",
      input,
      "-T",
      "fields",
      "-e",
      "frame.time_epoch",
      "-e",
      "frame.len",
      "-e",
      "frame.cap_len",
    ]);
    for (const nanosecond of [false, true]) {
      const file = path.join(tmp, `out-${nanosecond}.pcap`);
      await copy(file, { format: "pcap", nanosecond, linkType: 1 });
      const written = tshark([
        "-r",
        file,
        "-T",
        "fields",
        "-e",
        "frame.time_epoch",
        "-e",
        "frame.len",
        "-e",
        "frame.cap_len",
      ]);
      const micro = (s: string) => s.replace(/(\.\d{6})\d{3}/g, "$1");
      expect(nanosecond ? written : micro(written)).toBe(nanosecond ? original : micro(original));
      const capinfos = spawnSync("capinfos", ["-M", "-c", "-T", "-r", file], { encoding: "utf8" });
      expect(capinfos.stdout.trim().split("\t")[1]).toBe("64");
    }
  });

  it("writes pcapng with interface options and packet comments that tshark shows", async () => {
    const file = path.join(tmp, "out.pcapng");
    await copy(
      file,
      {
        format: "pcapng",
        interfaces: [{ linkType: 1, name: "eth0", description: "lab uplink" }],
        application: "tracemill",
      },
      (i) => (i === 3 ? ["suspicious request"] : []),
    );
    const comments = tshark([
      "-r",
      file,
      "-Y",
      "frame.comment",
      "-T",
      "fields",
      "-e",
      "frame.number",
      "-e",
      "frame.comment",
    ]);
    expect(comments.trim()).toBe("4\tsuspicious request");
    const names = tshark([
      "-r",
      file,
      "-T",
      "fields",
      "-e",
      "frame.interface_name",
      "-e",
      "frame.interface_description",
      "-c",
      "1",
    ]);
    expect(names.trim()).toBe("eth0\tlab uplink");
    const back: string[] = [];
    const result = await readCapture(file, (_packet, source) => back.push(source.packetComments().join("|")));
    expect([result.packets, result.complete, back[3]]).toEqual([64, true, "suspicious request"]);
  });

  it("leaves no file on abort and keeps an older file untouched", async () => {
    const file = path.join(tmp, "kept.pcap");
    fs.writeFileSync(file, "older");
    const writer = await openCaptureWriter(file, { format: "pcap" });
    await readCapture(input, (p) => {
      writer.write(p);
    });
    await writer.abort();
    expect(fs.readFileSync(file, "utf8")).toBe("older");
    expect(fs.readdirSync(tmp).filter((f) => f.includes("kept"))).toEqual(["kept.pcap"]);
  });

  it("signals backpressure and drains", async () => {
    const file = path.join(tmp, "pressure.pcap");
    const writer = await openCaptureWriter(file, { format: "pcap", batchBytes: 2048, highWaterBytes: 4096 });
    const packets: {
      data: Uint8Array;
      tsSec: number;
      tsNsec: number;
      capturedLength: number;
      originalLength: number;
      linkType: number;
    }[] = [];
    await readCapture(input, (p) => packets.push({ ...p, data: p.data.slice() }));
    let pressured = 0;
    for (const p of packets) {
      if (!writer.write({ ...p, interfaceIndex: 0, fileOffset: 0, index: 0 })) {
        pressured++;
        await writer.drain();
      }
    }
    await writer.close();
    expect(pressured).toBeGreaterThan(0);
    expect((await readCapture(file, () => {})).packets).toBe(64);
  });

  it("writes its chunks at their own offsets, many at once, into exactly the bytes of one ordered stream", async () => {
    const file = path.join(tmp, "concurrent.pcap");
    const packets: Parameters<PcapWriter["write"]>[0][] = [];
    await readCapture(input, (p) => packets.push({ ...p, data: p.data.slice() }));
    const expected: Buffer[] = [];
    const memory = new PcapWriter((chunk) => expected.push(Buffer.from(chunk)), { batchBytes: 1000 });
    // Small chunks and a high-water mark far above the total: every chunk is in flight before the first is done.
    const writer = await openCaptureWriter(file, { format: "pcap", batchBytes: 1000, highWaterBytes: 1 << 30 });
    for (let round = 0; round < 100; round++) {
      for (const p of packets) {
        memory.write(p);
        expect(writer.write(p)).toBe(true);
      }
    }
    memory.finish();
    await writer.close();
    expect(expected.length).toBeGreaterThan(1000);
    expect(fs.readFileSync(file).equals(Buffer.concat(expected))).toBe(true);
  });

  it("fails close with the first write error only once every write under way has ended, and leaves no file", async () => {
    const file = path.join(tmp, "failing.pcap");
    const realOpen = fs.promises.open;
    let calls = 0;
    let running = 0;
    let mostRunning = 0;
    // The writer's handle: write 2 fails at once, write 4 fails later with another error, the rest succeed late.
    const open = vi.spyOn(fs.promises, "open").mockImplementation(async (...args: Parameters<typeof realOpen>) => {
      const handle = await realOpen(...args);
      const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
      Object.assign(handle, {
        async write(...a: unknown[]) {
          const call = ++calls;
          mostRunning = Math.max(mostRunning, ++running);
          try {
            await new Promise((resolve) => setTimeout(resolve, call === 2 ? 0 : call === 4 ? 40 : 20));
            if (call === 2) throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
            if (call === 4)
              throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
            return await write(...a);
          } finally {
            running--;
          }
        },
      });
      return handle;
    });
    try {
      const writer = await openCaptureWriter(file, { format: "pcap", batchBytes: 1000, highWaterBytes: 1 << 30 });
      await readCapture(input, (p) => {
        writer.write(p);
      });
      await expect(writer.close()).rejects.toMatchObject({
        code: "TOOL_FAILED",
        message: `${file}: writing failed (EIO)`,
      });
      expect([running, calls > 4, mostRunning > 4]).toEqual([0, true, true]);
      expect(fs.readdirSync(tmp).filter((f) => f.includes("failing"))).toEqual([]);
    } finally {
      open.mockRestore();
    }
  });
});
