// `extract --threads N` against the single pass on inputs at the edges of the ring records and of the run: lengths
// of 2^31 bytes and more, IP headers over 16 bits, empty captures, captures without a session, workers without a
// session, gzip and pcapng input, a tick at every addition.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type CapturedPacket, TcpFlag } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, ipv6, pcapFile, tcp, udp } from "../../../core/src/testing/index.js";
import { type ExtractOptions, extractFeatures } from "./extract-features.js";
import { runShardedPass, shardOf } from "./sharded-pass.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const BASE = 1_700_000_000;
const { SYN, ACK, FIN } = TcpFlag;

const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-threads-edges-"));
  scratchDirs.push(dir);
  return dir;
}

async function outputs(input: string, threads: number, options: ExtractOptions = {}) {
  const outDir = scratch();
  try {
    await extractFeatures(input, { ...options, outDir, threads });
    return {
      csv: fs.readFileSync(path.join(outDir, "features.csv"), "utf8"),
      summary: fs.readFileSync(path.join(outDir, "summary.json"), "utf8"),
    };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/** The single-thread CSV and summary, after checking that every count in `counts` writes the same. */
async function expectSame(input: string, options: ExtractOptions = {}, counts = [2]) {
  const single = await outputs(input, 1, options);
  for (const threads of counts) {
    const sharded = await outputs(input, threads, options);
    expect(sharded.summary).toBe(single.summary);
    expect(sharded.csv).toBe(single.csv);
  }
  return { csv: single.csv, summary: JSON.parse(single.summary) };
}

function at(seconds: number, frame: Uint8Array, originalLength = frame.length): CapturedPacket {
  const ns = Math.round(seconds * 1e9);
  const packet = capturedPacket(frame, { linkType: 1, tsSec: BASE + Math.floor(ns / 1e9), tsNsec: ns % 1e9 });
  return { ...packet, originalLength };
}

function write(name: string, bytes: Uint8Array): string {
  const file = path.join(scratch(), name);
  fs.writeFileSync(file, bytes);
  return file;
}

const v4udp = (src: string, dst: string, srcPort: number, dstPort: number, payload = 10) =>
  ethernet(ipv4({ src, dst }, udp({ srcPort, dstPort, payload })));

describe("extract --threads N at the edges", () => {
  it("counts frame lengths of 2^31 bytes and more as the single pass does", async () => {
    // Original lengths are 32-bit fields of the file: a damaged or crafted record can claim up to 4 GiB.
    const packets = [0, 1, 2, 3].map((i) =>
      at(i * 0.1, v4udp("10.0.0.1", "10.0.0.2", 1000 + (i & 1), 53), [60, 2 ** 31, 2 ** 31 + 7, 2 ** 32 - 1][i]),
    );
    const { csv } = await expectSame(write("long.pcap", pcapFile(packets, { nanosecond: true })), { length: "frame" });
    expect(csv).toContain(String(2 ** 31 + 7));
  });

  it("counts an IPv6 jumbogram of 3 GB on the wire and IP headers over 16 bits as the single pass does", async () => {
    // A payload length of 0 takes the length from the wire; 32 destination-option headers of 2 KiB make an IP
    // header of 65 576 bytes, more than 16 bits.
    const jumbo = ethernet(
      ipv6({ src: "2001:db8::1", dst: "2001:db8::2", payloadLength: 0 }, udp({ srcPort: 1, dstPort: 2, payload: 8 })),
    );
    const extensionHeaders = Array.from({ length: 32 }, () => ({ type: 60 as const, length: 2048 }));
    const deep = ethernet(
      ipv6(
        { src: "2001:db8::3", dst: "2001:db8::4", payloadLength: 0, extensionHeaders },
        tcp({ srcPort: 3, dstPort: 4, flags: SYN }),
      ),
    );
    const packets = [at(0, jumbo, 3_000_000_000), at(0.5, deep), at(1, jumbo, 3_000_000_000)];
    const { csv } = await expectSame(write("jumbo.pcap", pcapFile(packets, { nanosecond: true })));
    expect(csv).toContain(String(2 * (3_000_000_000 - 14)));
    expect(csv).toContain(String(40 + 32 * 2048 + 20));
  });

  it("writes the single-thread output for an empty capture and for one with no TCP or UDP packet", async () => {
    const empty = await expectSame(write("empty.pcap", pcapFile([])), {}, [2, 3]);
    expect(empty.summary.packets.read).toBe(0);
    const icmp = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, { type: 1, bytes: new Uint8Array(8) }));
    const none = await expectSame(write("icmp.pcap", pcapFile([at(0, icmp), at(1, icmp)])), {}, [3]);
    expect(none.summary.packets.ignored["non-TCP/UDP"]).toBe(2);
    expect(none.summary.sessions.total).toBe(0);
  });

  it("writes the single-thread output when most workers never get a session", async () => {
    const packets = [
      at(0, ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 5, dstPort: 80, flags: SYN })))),
      at(1, ethernet(ipv4({ src: "10.0.0.2", dst: "10.0.0.1" }, tcp({ srcPort: 80, dstPort: 5, flags: FIN | ACK })))),
      at(200, v4udp("10.0.0.1", "10.0.0.2", 5, 80)),
    ];
    const { summary } = await expectSame(write("one.pcap", pcapFile(packets, { nanosecond: true })), {}, [4]);
    expect(summary.sessions.total).toBe(2);
    expect(summary.sessions.byEndReason.idle).toBe(1);
  });

  it("ends sessions idle or at the end of the capture by the capture's last time, to the nanosecond", async () => {
    // Idle timeout 5 s; the last packet, at 5 s + 1 ns, belongs to another session: the sessions of time 0 were idle
    // for longer than the timeout at the end (idle), those of 1 ns exactly for the timeout (end-of-capture). On 3
    // workers most of them sit on a worker that never sees that last packet.
    const packets: CapturedPacket[] = [];
    for (let i = 0; i < 20; i++) packets.push(at(0, v4udp(`10.5.0.${i}`, "10.9.0.1", 1000, 53)));
    for (let i = 0; i < 20; i++) packets.push(at(1e-9, v4udp(`10.6.0.${i}`, "10.9.0.1", 1000, 53)));
    packets.push(at(5.000000001, v4udp("10.7.0.1", "10.9.0.1", 1, 53)));
    const file = write("edge.pcap", pcapFile(packets, { nanosecond: true }));
    const { summary } = await expectSame(file, { idleTimeout: 5 }, [3]);
    expect(summary.sessions.byEndReason.idle).toBe(20);
    expect(summary.sessions.byEndReason["end-of-capture"]).toBe(21);
  });

  it("reads gzip and pcapng input as the single pass does", async () => {
    const pcap = fs.readFileSync(path.join(repo, "test/fixtures/capture/benign/wikipedia-browse.pcap"));
    await expectSame(write("browse.pcap.gz", gzipSync(pcap)));
    await expectSame(path.join(repo, "test/fixtures/capture/attacks/dvwa-web-attacks.pcapng"));
  });

  it("writes the single-thread order with a tick at every addition", async () => {
    const packets: CapturedPacket[] = [];
    for (let i = 0; i < 3000; i++) {
      const host = `10.1.${(i >> 8) & 255}.${i & 255}`;
      packets.push(at(i * 0.05, v4udp(host, "10.9.9.9", 1024 + (i % 7), 53)));
      if (i % 5 === 0) packets.push(at(i * 0.05, v4udp("10.2.2.2", "10.9.9.9", 7, 53)));
    }
    const file = write("ticks.pcap", pcapFile(packets, { nanosecond: true }));
    const options = { idleTimeout: 3, activeTimeout: 10, length: "ip" } as const;
    const single = await outputs(file, 1, options);
    const dir = scratch();
    const csv = path.join(dir, "features.csv");
    const summary = await runShardedPass(file, csv, options, 3, {}, { tickAdds: 1 });
    expect(fs.readFileSync(csv, "utf8")).toBe(single.csv);
    expect(summary.csv.rows).toBe(single.csv.split("\n").length - 2);
  });
});

/** Threads of this process (session and hashing workers included). */
const threadCount = () => fs.readdirSync("/proc/self/task").length;

/** Waits for the process's threads to be back to `count` at most (workers end a moment after terminate). */
async function threadsBackTo(count: number): Promise<number> {
  for (let i = 0; i < 40 && threadCount() > count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return threadCount();
}

describe("extract --threads N when the run fails", () => {
  it("leaves no worker thread and no file after a cancellation mid-run, bad input, or a CSV it cannot create", async () => {
    // More than one 1 MiB input chunk: the cancellation comes at the end of the first one, workers running.
    const frame = v4udp("10.0.0.1", "10.0.0.2", 1, 53, 100);
    const big = write(
      "big.pcap",
      pcapFile(
        Array.from({ length: 40_000 }, (_, i) => at(i * 1e-3, frame)),
        { nanosecond: true },
      ),
    );
    const dir = scratch();
    // A first single-thread run starts the I/O threads the process keeps anyway.
    await extractFeatures(big, { outDir: dir });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    const baseline = threadCount();

    const controller = new AbortController();
    let chunks = 0;
    const run = extractFeatures(big, {
      outDir: dir,
      threads: 3,
      signal: controller.signal,
      onProgress: () => {
        chunks++;
        controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: "CANCELLED" });
    expect(chunks).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(await threadsBackTo(baseline)).toBeLessThanOrEqual(baseline);

    const bad = path.join(repo, "test/fixtures/capture/formats/bad_pcap-invalid-version-1.pcap");
    await expect(extractFeatures(bad, { outDir: dir, threads: 2 })).rejects.toMatchObject({ code: "BAD_INPUT" });
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(await threadsBackTo(baseline)).toBeLessThanOrEqual(baseline);

    const csvPath = path.join(dir, "missing", "features.csv");
    await expect(extractFeatures(big, { outDir: dir, csvPath, threads: 2 })).rejects.toThrow(/cannot be created/);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(await threadsBackTo(baseline)).toBeLessThanOrEqual(baseline);
  });
});

describe("shardOf", () => {
  const ip = (...octets: number[]) => Uint8Array.from(octets);

  it("gives both directions of a connection the same worker", () => {
    for (let i = 0; i < 500; i++) {
      const a = ip(10, 5, i >> 8, i & 255);
      const b = ip(192, 168, 1, i & 255);
      expect(shardOf(a, b, true, 1000 + i, 80, 7)).toBe(shardOf(b, a, true, 80, 1000 + i, 7));
    }
  });

  it("spreads hosts that count up with their ports over every worker", () => {
    const counts = [0, 0, 0, 0];
    const server = ip(10, 0, 0, 1);
    for (let i = 0; i < 1000; i++) counts[shardOf(ip(10, 5, i >> 8, i & 255), server, true, 1000 + i, 443, 4)]++;
    for (const count of counts) expect(count).toBeGreaterThan(180);
  });
});
