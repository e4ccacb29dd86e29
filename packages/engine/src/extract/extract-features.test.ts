// The whole pass on synthetic pcap files built in code: IPv6 extension headers, fragments (in and out of order),
// ignored packets by reason, gzip input, determinism, cancellation. Expected rows come from the exact reference
// used for the core tests (docs/features.md definitions in rational arithmetic).
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { FEATURE_COLUMNS, TcpFlag } from "@tracemill/core";
import { describe, expect, it } from "vitest";
import {
  capturedPacket,
  ethernet,
  fragments,
  ipPayload,
  ipv4,
  ipv6,
  pcapFile,
  tcp,
  udp,
} from "../../../core/src/testing/index.js";
import { extractFeatures } from "./extract-features.js";

const BASE = 1_700_000_000;
const { SYN, ACK, PSH } = TcpFlag;

function at(seconds: number, frame: Uint8Array, snaplen?: number) {
  const nanoseconds = Math.round(seconds * 1e9);
  return capturedPacket(frame, {
    linkType: 1,
    tsSec: BASE + Math.floor(nanoseconds / 1e9),
    tsNsec: nanoseconds % 1e9,
    snaplen,
  });
}

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-extract-"));
}

async function extract(file: Uint8Array, options: { length?: "ip" | "frame"; gzip?: boolean } = {}) {
  const dir = scratch();
  const input = path.join(dir, options.gzip ? "input.pcap.gz" : "input.pcap");
  fs.writeFileSync(input, options.gzip ? gzipSync(file) : file);
  const outDir = path.join(dir, "out");
  fs.mkdirSync(outDir);
  const result = await extractFeatures(input, { outDir, length: options.length });
  const csv = fs.readFileSync(path.join(outDir, "features.csv"), "utf8");
  const [header, ...rows] = csv.trimEnd().split("\n");
  return { header, rows, result, csv, outDir };
}

const record = (line: string) => Object.fromEntries(line.split(",").map((value, i) => [FEATURE_COLUMNS[i], value]));

const client6 = "2001:db8::a";
const server6 = "2001:db8::b";
const hopByHop = [{ type: 0 as const }];
const ipv6Session = [
  at(
    0,
    ethernet(
      ipv6(
        { src: client6, dst: server6, extensionHeaders: hopByHop },
        tcp({ srcPort: 50000, dstPort: 443, flags: SYN }),
      ),
    ),
  ),
  at(0.00001, ethernet(ipv6({ src: server6, dst: client6 }, tcp({ srcPort: 443, dstPort: 50000, flags: SYN | ACK })))),
  at(
    0.00002,
    ethernet(ipv6({ src: client6, dst: server6, extensionHeaders: hopByHop }, tcp({ srcPort: 50000, dstPort: 443 }))),
  ),
  at(
    0.5,
    ethernet(
      ipv6(
        { src: client6, dst: server6, extensionHeaders: hopByHop },
        tcp({ srcPort: 50000, dstPort: 443, flags: PSH | ACK, payload: 100 }),
      ),
    ),
  ),
];

const request = fragments(
  { src: "192.0.2.1", dst: "192.0.2.2" },
  udp({ srcPort: 5000, dstPort: 6000, payload: 3000 }),
  1480,
  7,
);
const answer = fragments(
  { src: "192.0.2.2", dst: "192.0.2.1" },
  udp({ srcPort: 6000, dstPort: 5000, payload: 3000 }),
  1480,
  8,
);
const fragmented = [
  at(1, ethernet(request[0])),
  at(1.0001, ethernet(request[1])),
  at(1.0002, ethernet(request[2])),
  // The answer's fragments arrive last first: the later ones wait for the first fragment's ports.
  at(2, ethernet(answer[2])),
  at(2.0001, ethernet(answer[1])),
  at(2.0002, ethernet(answer[0])),
];

describe("extractFeatures", () => {
  it("gives every column exactly for IPv6 with an extension header", async () => {
    const { header, rows, result } = await extract(pcapFile(ipv6Session, { nanosecond: true }));
    expect(header.split(",")).toEqual(FEATURE_COLUMNS);
    expect(rows.map(record)).toEqual(
      [
        "6,1700000000,2001:db8::a,50000,2001:db8::b,443,0.5,3,1,304,60,68,168,101.333333,57.735027,60,60,60,0,0.5,0.00002,0.49998,0.25,0.353525106,0,0,0,0,0,1,0,0,0,204,60,6,2,728,91,51.471675,0.166666667,0.288657814,0,2,0,3,0,0,0,0.197368",
      ].map(record),
    );
    expect(result.summary.sessions.byProtocol).toEqual({ tcp: 1, udp: 0 });
  });

  it("counts every fragment in its session, also those that come before their first fragment", async () => {
    const { rows, result } = await extract(pcapFile(fragmented, { nanosecond: true }));
    expect(rows.map(record)).toEqual(
      [
        "17,1700000001,192.0.2.1,5000,192.0.2.2,6000,1.0002,3,3,3068,3068,68,1500,1022.666667,826.765585,68,1500,1022.666667,826.765585,0.0002,0.0001,0.0001,0.0001,0,0,0,0,0,0,0,0,0,0,68,68,2.9994,2.9994,6134.773045,1022.666667,739.48162,0.20004,0.447191238,0,0,0,0,0,0,0,1",
      ].map(record),
    );
    expect(result.summary.fragments).toEqual({ attributed: 2, resolvedLater: 2 });
    expect(result.summary.packets.decoded).toBe(6);
  });

  it("counts ignored packets by reason, and out-of-order timestamps", async () => {
    const arp = ethernet({ type: 0x0806, bytes: new Uint8Array(28) });
    const icmp = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, ipPayload(1, 8)));
    const syn = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 1, dstPort: 2, flags: SYN })));
    const lonely = fragments(
      { src: "10.0.0.3", dst: "10.0.0.4" },
      udp({ srcPort: 7, dstPort: 8, payload: 100 }),
      64,
      9,
    );
    const packets = [
      at(0, arp),
      at(1, icmp),
      at(2, syn, 14 + 20 + 3),
      at(3, syn),
      at(2.5, syn),
      at(4, ethernet(lonely[1])),
    ];
    const { rows, result } = await extract(pcapFile(packets, { nanosecond: true }));
    const { packets: counts } = result.summary;
    expect(counts.read).toBe(6);
    expect(counts.decoded).toBe(2);
    expect(counts.ignored).toEqual({
      "non-IP": 1,
      "non-TCP/UDP": 1,
      truncated: 1,
      malformed: 0,
      "fragment without its first fragment": 1,
    });
    expect(counts.outOfOrder).toBe(1);
    // The late SYN is counted at the latest time seen: two packets, zero duration, never a negative gap.
    expect(rows).toHaveLength(1);
    expect(record(rows[0]).total_fpackets).toBe("2");
    expect(record(rows[0]).flowduration).toBe("0");
    expect(record(rows[0]).min_fipt).toBe("0");
  });

  it("counts frame lengths with length: frame, and reads gzip-compressed captures", async () => {
    const ip = await extract(pcapFile(ipv6Session, { nanosecond: true }), { gzip: true });
    const frame = await extract(pcapFile(ipv6Session, { nanosecond: true }), { length: "frame" });
    expect(ip.result.summary.input.format).toBe("pcap");
    expect(record(ip.rows[0]).total_fpktl).toBe("304");
    expect(record(frame.rows[0]).total_fpktl).toBe(String(304 + 3 * 14));
    expect(record(frame.rows[0]).total_bpktl).toBe(String(60 + 14));
  });

  it("writes byte-identical output for the same input, with its provenance in the summary", async () => {
    const file = pcapFile([...fragmented, ...ipv6Session.map((p) => ({ ...p, tsSec: p.tsSec + 3 }))], {
      nanosecond: true,
    });
    const first = await extract(file);
    const second = await extract(file);
    expect(second.csv).toBe(first.csv);
    const summary = first.result.summary;
    expect(summary.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(summary.input.bytes).toBe(file.length);
    expect(summary.csv).toEqual({ name: "features.csv", rows: 2, columns: 50 });
    expect(fs.readFileSync(path.join(first.outDir, "summary.json"), "utf8")).toBe(
      fs.readFileSync(path.join(second.outDir, "summary.json"), "utf8").replace(second.outDir, first.outDir),
    );
    expect(fs.readdirSync(first.outDir).sort()).toEqual(["features.csv", "summary.json"]);
  });

  it("records the digest a caller gives for the input instead of hashing it, refusing a malformed one", async () => {
    const dir = scratch();
    const input = path.join(dir, "input.pcap");
    const file = pcapFile(ipv6Session);
    fs.writeFileSync(input, file);
    const run = async (inputHashes: Record<string, string>) => {
      const outDir = fs.mkdtempSync(path.join(dir, "out-"));
      return { outDir, result: await extractFeatures(input, { outDir, inputHashes }) };
    };
    const given = "AB".repeat(32);
    expect((await run({ [input]: given })).result.summary.input.sha256).toBe(given.toLowerCase());
    // A digest given for another path is not this input's.
    const other = await run({ [path.join(dir, "other.pcap")]: given });
    expect(other.result.summary.input.sha256).toBe(createHash("sha256").update(file).digest("hex"));
    const refused = await run({ [input]: "xyz" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "BAD_OPTION", context: { file: input } });
    const outDirs = fs.readdirSync(dir).filter((name) => name.startsWith("out-"));
    expect(outDirs.map((name) => fs.readdirSync(path.join(dir, name)).length).sort()).toEqual([0, 2, 2]);
  });

  it("stops on abort, leaving no partial output", async () => {
    const dir = scratch();
    const input = path.join(dir, "input.pcap");
    fs.writeFileSync(input, pcapFile(ipv6Session));
    const controller = new AbortController();
    controller.abort();
    await expect(extractFeatures(input, { outDir: dir, signal: controller.signal })).rejects.toMatchObject({
      code: "CANCELLED",
    });
    expect(fs.readdirSync(dir)).toEqual(["input.pcap"]);
  });

  it("rejects bad options before reading", async () => {
    const dir = scratch();
    await expect(extractFeatures("/no/such/file", { outDir: dir, idleTimeout: -1 })).rejects.toMatchObject({
      code: "BAD_OPTION",
    });
    await expect(extractFeatures("/no/such/file", { outDir: dir })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
