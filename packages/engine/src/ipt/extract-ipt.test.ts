// The IPT capability end to end on a synthetic capture: one line per CSV row, in row order, exact gaps and signs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { capturedPacket, ethernet, ipv4, ipv6, pcapFile, tcp, udp } from "../../../core/src/testing/index.js";
import { FileRowSpill } from "../output/file-row-spill.js";
import { extractIpt } from "./extract-ipt.js";

const T0 = 1_700_000_000;
const SYN = 0x02;
const ACK = 0x10;

function at(seconds: number, nanoseconds: number, frame: Uint8Array) {
  return capturedPacket(frame, { linkType: 1, tsSec: T0 + seconds, tsNsec: nanoseconds });
}

function tcpPacket(src: string, dst: string, srcPort: number, dstPort: number, flags: number, payload = 0) {
  return ethernet(ipv4({ src, dst }, tcp({ srcPort, dstPort, flags, payload })));
}

/** Three sessions: a TCP handshake + data, a one-packet UDP exchange, and an IPv6 UDP pair 500 ns apart. */
function capture(): Uint8Array {
  return pcapFile(
    [
      at(0, 0, tcpPacket("10.0.0.1", "10.0.0.2", 1000, 80, SYN)),
      at(0, 100_000_000, ethernet(ipv4({ src: "10.0.0.3", dst: "10.0.0.4" }, udp({ srcPort: 53, dstPort: 5353 })))),
      at(0, 200_000_000, ethernet(ipv6({ src: "2001:db8::1", dst: "2001:db8::2" }, udp({ srcPort: 9, dstPort: 7 })))),
      at(0, 200_000_500, ethernet(ipv6({ src: "2001:db8::1", dst: "2001:db8::2" }, udp({ srcPort: 9, dstPort: 7 })))),
      at(0, 500_000_000, tcpPacket("10.0.0.2", "10.0.0.1", 80, 1000, SYN | ACK)),
      at(0, 500_001_000, tcpPacket("10.0.0.1", "10.0.0.2", 1000, 80, ACK)),
      at(2, 0, tcpPacket("10.0.0.2", "10.0.0.1", 80, 1000, ACK, 100)),
    ],
    { nanosecond: true },
  );
}

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function setUp(): { file: string; outDir: string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-ipt-"));
  const file = path.join(dir, "capture.pcap");
  fs.writeFileSync(file, capture());
  const outDir = path.join(dir, "out");
  fs.mkdirSync(outDir);
  return { file, outDir };
}

describe("extractIpt", () => {
  it("writes one line per CSV row, in row order, with exact gaps", async () => {
    const { file, outDir } = setUp();
    const result = await extractIpt(file, {}, { outDir });
    const lines = fs.readFileSync(path.join(outDir, "ipt.txt"), "utf8").split("\n");
    const rows = fs.readFileSync(path.join(outDir, "features.csv"), "utf8").trimEnd().split("\n").slice(1);
    expect(lines.pop()).toBe("");
    expect(lines).toEqual(["0.5,0.000001,1.499999", "", "0.0000005"]);
    expect(rows).toHaveLength(lines.length);
    expect(rows.map((r) => r.split(",")[2])).toEqual(["10.0.0.1", "10.0.0.3", "2001:db8::1"]);
    expect(result.outputs.map((o) => o.kind).sort()).toEqual(["features-csv", "ipt-txt", "summary-json"]);
    expect(result.summary.ipt).toEqual({ lines: 3, gaps: 4, signed: false });
    expect(fs.readdirSync(outDir).sort()).toEqual(["features.csv", "ipt.txt", "summary.json"]);
  });

  it("signs the gaps ending at backward packets with signed", async () => {
    const { file, outDir } = setUp();
    await extractIpt(file, { signed: true }, { outDir });
    const lines = fs.readFileSync(path.join(outDir, "ipt.txt"), "utf8").split("\n");
    expect(lines.slice(0, 3)).toEqual(["-0.5,0.000001,-1.499999", "", "0.0000005"]);
  });

  it("writes the same lines and rows when the waiting ones go to temporary files", async () => {
    const { file, outDir } = setUp();
    // With a 1.6 s idle timeout the UDP sessions end at the packet at 2 s while the TCP session goes on: their lines
    // and rows wait for its own, here each in its temporary file.
    const appends = vi.spyOn(FileRowSpill.prototype, "append");
    await extractIpt(file, { idleTimeout: 1.6 }, { outDir, rowMemoryBytes: 1 });
    expect(appends.mock.calls.length).toBeGreaterThanOrEqual(3);
    appends.mockRestore();
    const inMemory = path.join(dir, "in-memory");
    fs.mkdirSync(inMemory);
    await extractIpt(file, { idleTimeout: 1.6 }, { outDir: inMemory });
    for (const name of ["ipt.txt", "features.csv"]) {
      expect(fs.readFileSync(path.join(outDir, name), "utf8")).toBe(fs.readFileSync(path.join(inMemory, name), "utf8"));
    }
    expect(fs.readFileSync(path.join(outDir, "ipt.txt"), "utf8")).toBe("0.5,0.000001,1.499999\n\n0.0000005\n");
    expect(fs.readdirSync(outDir).sort()).toEqual(["features.csv", "ipt.txt", "summary.json"]);
  });
});
