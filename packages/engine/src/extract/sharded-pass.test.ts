// `extract --threads N` writes the single-thread CSV and summary byte for byte: on the fixture captures (IPv6,
// fragments, several link types, damage at the end) and on synthetic captures whose rows interleave over the workers;
// a failing worker fails the run with no CSV left; the thread count is checked.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type CapturedPacket, TcpFlag } from "@tracemill/core";
import { describe, expect, it, vi } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import {
  capturedPacket,
  ethernet,
  fragments,
  ipv4,
  ipv6,
  pcapFile,
  tcp,
  udp,
} from "../../../core/src/testing/index.js";
import { type ExtractOptions, extractFeatures } from "./extract-features.js";
import { FileRowSpill } from "./file-row-spill.js";
import { runShardedPass } from "./sharded-pass.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const BASE = 1_700_000_000;
const { SYN, ACK, FIN, RST } = TcpFlag;

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-threads-"));
}

/** CSV and summary text of `input` with `threads` workers (same file names, so the summaries compare as bytes). */
async function outputs(input: string, threads: number, options: ExtractOptions = {}) {
  const outDir = scratch();
  try {
    const { summary } = await extractFeatures(input, { ...options, outDir, threads });
    return {
      csv: fs.readFileSync(path.join(outDir, "features.csv")),
      summary: fs.readFileSync(path.join(outDir, "summary.json"), "utf8"),
      rows: summary.csv.rows,
    };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

async function expectSameForEveryCount(input: string, options: ExtractOptions = {}, counts = [2, 3]): Promise<number> {
  const single = await outputs(input, 1, options);
  for (const threads of counts) {
    const sharded = await outputs(input, threads, options);
    expect(sharded.summary).toBe(single.summary);
    expect(Buffer.compare(sharded.csv, single.csv)).toBe(0);
  }
  return single.rows;
}

function at(seconds: number, frame: Uint8Array): CapturedPacket {
  const ns = Math.round(seconds * 1e9);
  return capturedPacket(frame, { linkType: 1, tsSec: BASE + Math.floor(ns / 1e9), tsNsec: ns % 1e9 });
}

const v4tcp = (src: string, dst: string, srcPort: number, dstPort: number, flags: number, payload = 0) =>
  ethernet(ipv4({ src, dst }, tcp({ srcPort, dstPort, flags, payload })));
const v4udp = (src: string, dst: string, srcPort: number, dstPort: number, payload = 10) =>
  ethernet(ipv4({ src, dst }, udp({ srcPort, dstPort, payload })));

/**
 * Many short sessions spread over every worker while a long one (and a few idle ones) hold the row order back:
 * one-packet UDP, TCP closed by FIN or RST (with late packets after the close and a port reused by a new SYN),
 * IPv6, fragments whose first fragment comes last, timestamps going back, idle and active timeouts, and sessions
 * that are idle only against the capture's last time, not against their own worker's last packet.
 */
function interleaved(): CapturedPacket[] {
  const packets: CapturedPacket[] = [];
  let t = 0;
  for (let i = 0; i < 6000; i++) {
    t += 0.01;
    const host = `10.${(i >> 8) & 255}.${i & 255}.1`;
    if (i % 50 === 0) packets.push(at(t, v4tcp("192.0.2.1", "192.0.2.2", 40000, 443, ACK, i % 7)));
    if (i % 3 === 0) packets.push(at(t, v4udp(host, "198.51.100.53", 1024 + (i % 60000), 53)));
    else if (i % 3 === 1) {
      const port = 2000 + (i % 500);
      packets.push(at(t, v4tcp(host, "198.51.100.80", port, 80, SYN)));
      packets.push(at(t + 0.001, v4tcp("198.51.100.80", host, 80, port, SYN | ACK)));
      packets.push(at(t + 0.002, v4tcp(host, "198.51.100.80", port, 80, i % 2 === 0 ? RST : FIN | ACK, 5)));
      packets.push(at(t + 0.003, v4tcp("198.51.100.80", host, 80, port, FIN | ACK)));
      packets.push(at(t + 0.004, v4tcp(host, "198.51.100.80", port, 80, ACK)));
    } else {
      const a = `2001:db8::${(i % 4000).toString(16)}`;
      packets.push(
        at(t, ethernet(ipv6({ src: a, dst: "2001:db8::1" }, udp({ srcPort: 5353, dstPort: 53, payload: 4 })))),
      );
      // A timestamp going back by a second: counted at the latest time seen.
      if (i % 97 === 0) packets.push(at(t - 1, v4udp(host, "198.51.100.53", 7, 9)));
    }
    if (i % 400 === 0) {
      const parts = fragments(
        { src: host, dst: "203.0.113.9" },
        udp({ srcPort: 6000, dstPort: 7000, payload: 300 }),
        96,
        i,
      );
      for (let k = parts.length - 1; k >= 0; k--) packets.push(at(t, ethernet(parts[k])));
    }
    // A session in one worker goes quiet while the capture goes on: idle against the capture's last time.
    if (i === 5900) packets.push(at(t, v4udp("192.0.2.77", "192.0.2.78", 1, 2)));
  }
  packets.push(at(t + 25, v4tcp("192.0.2.1", "192.0.2.2", 40000, 443, ACK)));
  return packets;
}

/** A copy of an Ethernet + IPv4 (no options) + UDP frame with another source port (UDP checksum left as it was). */
function withSourcePort(frame: Uint8Array, port: number): Uint8Array {
  const copy = frame.slice();
  copy[34] = (port >> 8) & 255;
  copy[35] = port & 255;
  return copy;
}

function writeCapture(packets: CapturedPacket[]): string {
  const file = path.join(scratch(), "synthetic.pcap");
  fs.writeFileSync(file, pcapFile(packets, { nanosecond: true }));
  return file;
}

describe("extract --threads N", () => {
  it("writes the single-thread CSV and summary on the fixture captures", async () => {
    // Each capture on 2 workers (a worker takes about 0.3 s to start from the sources), a few on 3.
    const captures = [
      ...fs.readdirSync(path.join(repo, "test/fixtures/features/golden")).map((f) => f.replace(/\.csv$/, "")),
      "null-loopback_gopacket.pcap",
      "erf_100-packets.erf",
      "pcap-le-ns_sll_tcp-handshake-nano.pcap",
    ];
    let rows = 0;
    for (const capture of captures) {
      const counts = capture.includes("ipv6") || capture.includes("kakaotalk") ? [2, 3] : [2];
      rows += await expectSameForEveryCount(fixturePath(capture), {}, counts);
    }
    expect(rows).toBeGreaterThan(80);
  });

  it("writes the single-thread output for a capture damaged at the end (complete: false)", async () => {
    const whole = fs.readFileSync(path.join(repo, "test/fixtures/capture/benign/wikipedia-browse.pcap"));
    const file = path.join(scratch(), "cut.pcap");
    fs.writeFileSync(file, whole.subarray(0, whole.length - 700));
    await expectSameForEveryCount(file);
    expect(JSON.parse((await outputs(file, 2)).summary).complete).toBe(false);
  });

  it("merges rows that interleave over the workers into the single-thread order", async () => {
    const file = writeCapture(interleaved());
    const rows = await expectSameForEveryCount(file, { idleTimeout: 20, activeTimeout: 45 });
    expect(rows).toBeGreaterThan(6000);
    const summary = JSON.parse((await outputs(file, 3, { idleTimeout: 20, activeTimeout: 45 })).summary);
    expect(summary.packets.outOfOrder).toBeGreaterThan(0);
    expect(summary.fragments.resolvedLater).toBeGreaterThan(0);
    expect(summary.sessions.byEndReason.idle).toBeGreaterThan(0);
    expect(summary.sessions.byEndReason.active).toBeGreaterThan(0);
    expect(summary.sessions.byEndReason.rst).toBeGreaterThan(0);
    expect(summary.sessions.byEndReason.fin).toBeGreaterThan(0);
    expect(summary.sessions.byEndReason["end-of-capture"]).toBeGreaterThan(0);
  });

  it("writes rows as the workers' watermarks allow them, in the single-thread order", async () => {
    // A tick every 64 additions: rows leave the workers, and the merge, all through the run, not at the end.
    const file = writeCapture(interleaved());
    const single = await outputs(file, 1, { idleTimeout: 20, activeTimeout: 45 });
    const dir = scratch();
    const csv = path.join(dir, "features.csv");
    const options = { idleTimeout: 20, activeTimeout: 45, length: "ip" } as const;
    const summary = await runShardedPass(file, csv, options, 3, {}, { tickAdds: 64 });
    expect(Buffer.compare(fs.readFileSync(csv), single.csv)).toBe(0);
    expect(summary.csv.rows).toBe(single.rows);
  });

  it("writes the single-thread order when the rows held for other workers go to temporary files", async () => {
    const file = writeCapture(interleaved());
    const single = await outputs(file, 1, { idleTimeout: 20, activeTimeout: 45 });
    const dir = scratch();
    const csv = path.join(dir, "features.csv");
    const options = { idleTimeout: 20, activeTimeout: 45, length: "ip" } as const;
    const appends = vi.spyOn(FileRowSpill.prototype, "append");
    await runShardedPass(file, csv, options, 3, { rowMemoryBytes: 1 }, { tickAdds: 64 });
    expect(appends.mock.calls.length).toBeGreaterThan(10);
    appends.mockRestore();
    expect(Buffer.compare(fs.readFileSync(csv), single.csv)).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(["features.csv"]);
  });

  it("fails with OUTPUT_FAILED naming the file, not a worker, when the merge's temporary file cannot be written", async () => {
    const file = writeCapture(interleaved());
    const dir = scratch();
    const csv = path.join(dir, "features.csv");
    // The merge's first spill cannot be created, as on a full disk (workers, in their own threads, are unaffected).
    const open = fs.openSync;
    const opened = vi.spyOn(fs, "openSync").mockImplementation((file, ...rest) => {
      if (String(file).includes("waiting-rows-merge-0."))
        throw Object.assign(new Error("no space"), { code: "ENOSPC" });
      return open(file, ...rest);
    });
    const options = { idleTimeout: 20, activeTimeout: 45, length: "ip" } as const;
    const failure = await runShardedPass(file, csv, options, 2, { rowMemoryBytes: 1 }, { tickAdds: 64 })
      .then(
        () => null,
        (error: unknown) => error,
      )
      .finally(() => opened.mockRestore());
    expect(failure).toMatchObject({ code: "OUTPUT_FAILED" });
    expect((failure as Error).message).toMatch(
      /^\S+waiting-rows-merge-0\.[0-9a-f]{12}: could not hold rows .*no space/,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("fails the run when a worker fails, leaving no CSV", async () => {
    const options = { idleTimeout: 120, activeTimeout: 1800, length: "ip" } as const;
    const small = writeCapture(interleaved());
    const dir = scratch();
    const csv = path.join(dir, "features.csv");
    await expect(runShardedPass(small, csv, options, 2, {}, { failWorker: 1, failAfterPackets: 3000 })).rejects.toThrow(
      /session worker 2 failed: injected failure after 3000 packets/,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
    // More packets than a ring holds: this thread is blocked waiting for room when the worker fails.
    const frame = v4udp("10.0.0.1", "10.0.0.2", 1, 53);
    const many = writeCapture(Array.from({ length: 40_000 }, (_, i) => at(i * 1e-4, withSourcePort(frame, i))));
    await expect(runShardedPass(many, csv, options, 2, {}, { failWorker: 0, failAfterPackets: 10 })).rejects.toThrow(
      /session worker 1 failed: injected failure after 10 packets/,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("fails the run, without hanging, when a worker ends without a word while this thread waits for room", async () => {
    const options = { idleTimeout: 120, activeTimeout: 1800, length: "ip" } as const;
    const dir = scratch();
    const csv = path.join(dir, "features.csv");
    const frame = v4udp("10.0.0.1", "10.0.0.2", 1, 53);
    const many = writeCapture(Array.from({ length: 40_000 }, (_, i) => at(i * 1e-4, withSourcePort(frame, i))));
    const testing = { failWorker: 0, failAfterPackets: 10, failByExit: true, stallLimitMs: 300 };
    await expect(runShardedPass(many, csv, options, 2, {}, testing)).rejects.toThrow(
      /session worker 1 failed: it stopped before the end of the capture/,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("stops on abort, leaving no output", async () => {
    const file = writeCapture(interleaved());
    const dir = scratch();
    const controller = new AbortController();
    controller.abort();
    await expect(extractFeatures(file, { outDir: dir, threads: 2, signal: controller.signal })).rejects.toMatchObject({
      code: "CANCELLED",
    });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("takes 1 to 64 threads, and BAD_OPTION otherwise, before reading", async () => {
    const dir = scratch();
    for (const threads of [0, 65, 1.5, Number.NaN, -2]) {
      await expect(extractFeatures("/no/such/file", { outDir: dir, threads })).rejects.toMatchObject({
        code: "BAD_OPTION",
      });
    }
    await expect(extractFeatures("/no/such/file", { outDir: dir, threads: 64 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
