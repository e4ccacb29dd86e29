// Exact times however far a session is from the capture's first packet: a session 200 days after it (beyond 2^53
// ns, 104 days), and after a pcapng block with a zero timestamp. The CSV's ts, duration and gaps are compared as
// text with tshark's frame.time_epoch of the same file, differences taken in integer nanoseconds.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FEATURE_COLUMNS, PcapngWriter, TcpFlag } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp, udp } from "../../../core/src/testing/index.js";
import { extractFeatures } from "./extract-features.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-exact-time-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** 1 700 000 000 s + 200 days. */
const FAR = 1_700_000_000 + 200 * 86_400;
const { SYN, ACK } = TcpFlag;

function at(tsSec: number, tsNsec: number, frame: Uint8Array) {
  return capturedPacket(frame, { linkType: 1, tsSec, tsNsec });
}

const client = { src: "10.0.0.3", dst: "10.0.0.4" };
const server = { src: "10.0.0.4", dst: "10.0.0.3" };
/** A TCP handshake 200 days after 1 700 000 000 s, its last packet 0.147503 s after its first. */
const farSession = [
  at(FAR, 900_000_001, ethernet(ipv4(client, tcp({ srcPort: 40000, dstPort: 443, flags: SYN })))),
  at(FAR, 950_000_003, ethernet(ipv4(server, tcp({ srcPort: 443, dstPort: 40000, flags: SYN | ACK })))),
  at(FAR + 1, 47_503_001, ethernet(ipv4(client, tcp({ srcPort: 40000, dstPort: 443, flags: ACK })))),
];
const dns = at(
  1_700_000_000,
  1,
  ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, udp({ srcPort: 5353, dstPort: 53 }))),
);
/** A packet with a zero timestamp (a pcapng block read as time 0). */
const atEpoch = at(0, 0, ethernet(ipv4({ src: "192.0.2.1", dst: "192.0.2.2" }, udp({ srcPort: 9, dstPort: 9 }))));

function pcapngFile(packets: ReturnType<typeof at>[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const writer = new PcapngWriter((chunk) => chunks.push(chunk), { interfaces: [{ linkType: 1, tsresol: 9 }] });
  for (const packet of packets) writer.write(packet);
  writer.finish();
  return Buffer.concat(chunks);
}

/** tshark's frame.time_epoch of every frame, in integer nanoseconds (−1 for a frame without a timestamp). */
function tsharkEpochs(file: string): bigint[] {
  const text = execFileSync("tshark", ["-r", file, "-T", "fields", "-e", "frame.time_epoch"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((epoch) => {
      if (epoch === "") return -1n;
      const [whole, fraction = ""] = epoch.split(".");
      return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
    });
}

/** Nanoseconds as docs/features.md writes times: seconds, up to 9 decimals, no trailing zeros. */
function seconds(ns: bigint): string {
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${ns / 1_000_000_000n}${fraction ? `.${fraction}` : ""}`;
}

async function rows(file: string) {
  const outDir = fs.mkdtempSync(path.join(dir, "out-"));
  await extractFeatures(file, { outDir });
  const [, ...lines] = fs.readFileSync(path.join(outDir, "features.csv"), "utf8").trimEnd().split("\n");
  return lines.map((line) => Object.fromEntries(line.split(",").map((value, i) => [FEATURE_COLUMNS[i], value])));
}

describe("exact times far from the capture's first packet", () => {
  const captures: [string, Uint8Array][] = [
    ["a pcap whose first packet is 200 days earlier", pcapFile([dns, ...farSession], { nanosecond: true })],
    ["a pcapng whose first block has a zero timestamp", pcapngFile([atEpoch, dns, ...farSession])],
  ];
  for (const [title, bytes] of captures) {
    it(`gives tshark's times to the nanosecond: ${title}`, async () => {
      const file = path.join(dir, `${title.replaceAll(" ", "-")}.cap`);
      fs.writeFileSync(file, bytes);
      const epochs = tsharkEpochs(file);
      const [syn, synAck, last] = epochs.slice(-3);
      const [dnsRow, tcpRow] = (await rows(file)).slice(-2);
      expect(dnsRow.ts).toBe(seconds(epochs.at(-4)!));
      expect(dnsRow.ts).toBe("1700000000.000000001");
      expect([tcpRow.ts, tcpRow.flowduration, tcpRow.total_fipt, tcpRow.min_fipt, tcpRow.mean_flowipt]).toEqual([
        seconds(syn),
        seconds(last - syn),
        seconds(last - syn),
        seconds(last - syn),
        seconds((synAck - syn + (last - synAck)) / 2n),
      ]);
      // The same by hand: 1.047503001 − 0.900000001 s, and the mean of 0.050000002 and 0.097502998 s.
      expect([tcpRow.ts, tcpRow.flowduration, tcpRow.mean_flowipt]).toEqual([
        "1717280000.900000001",
        "0.147503",
        "0.0737515",
      ]);
    });
  }

  it.each([
    [{ idleTimeout: 1_000_001 }, "the idle timeout must be a positive number of seconds up to 1000000 (got 1000001)"],
    [
      { activeTimeout: 8e6 + 0.5 },
      "the active timeout must be a positive number of seconds up to 8000000 (got 8000000.5)",
    ],
  ])("refuses a timeout beyond the limit that keeps a session's times exact: %o", async (options, message) => {
    const file = path.join(dir, "limits.pcap");
    fs.writeFileSync(file, pcapFile([dns]));
    const outDir = fs.mkdtempSync(path.join(dir, "out-"));
    await expect(extractFeatures(file, { outDir, ...options })).rejects.toMatchObject({ code: "BAD_OPTION", message });
  });

  it("gives tshark's times for a pcapng whose timestamp-less blocks come first (pcapng test suite, test011)", async () => {
    const file = fixturePath("capture/formats/pcapng-suite/le/test011.pcapng");
    const epochs = tsharkEpochs(file);
    const server = (await rows(file)).find((row) => row.srcPrt === "67")!;
    // Frames 2 and 4 are the server's, with timestamps.
    expect([server.ts, server.flowduration]).toEqual([seconds(epochs[1]), seconds(epochs[3] - epochs[1])]);
  });
});
