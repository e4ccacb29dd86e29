// Finding sessions in a real IPT output (the ipt capability over a synthetic capture whose gaps the test chose) and
// reading their series back, checked against the capture's own arithmetic; searches that stop at their row budget go
// on from where they stopped; files that are not one output are refused in one line naming them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SessionQuery } from "@tracemill/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, udp } from "../../../core/src/testing/index.js";
import { extractIpt } from "../ipt/extract-ipt.js";
import { type IptFiles, openIptOutput } from "./ipt-sessions.js";

const T = 1_700_000_000;
const SESSIONS = 150;
/** Session i: 1 + i mod 4 packets, (i + 1) ms apart, from 10.0.0.i port 2000+i to 192.0.2.(1 + i mod 3), 80 or 443. */
const packetsOf = (i: number) => 1 + (i % 4);
const dstOf = (i: number) => `192.0.2.${1 + (i % 3)}`;
const portOf = (i: number) => (i % 2 === 0 ? 80 : 443);

let dir = "";
let files: IptFiles;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-ipt-browse-"));
  const packets = [];
  for (let i = 0; i < SESSIONS; i++) {
    for (let j = 0; j < packetsOf(i); j++) {
      const frame = ethernet(
        ipv4({ src: `10.0.0.${i}`, dst: dstOf(i) }, udp({ srcPort: 2000 + i, dstPort: portOf(i) })),
      );
      packets.push(capturedPacket(frame, { linkType: 1, tsSec: T + i, tsNsec: j * (i + 1) * 1_000_000 }));
    }
  }
  const capture = path.join(dir, "capture.pcap");
  fs.writeFileSync(capture, pcapFile(packets, { nanosecond: true }));
  const outDir = path.join(dir, "out");
  fs.mkdirSync(outDir);
  await extractIpt(capture, {}, { outDir });
  files = {
    ipt: { path: path.join(outDir, "ipt.txt"), label: "ipt.txt" },
    csv: { path: path.join(outDir, "features.csv"), label: "features.csv" },
  };
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const query = (ports: number[], addresses: { text: string; whole: boolean }[] = []): SessionQuery => ({
  ports,
  addresses,
});
const all = { from: 1, limit: 1000, minPackets: 1, scan: 1_000_000 };
/** Data row k holds session k − 1: sessions start a second apart, and rows are in start order. */
const rowsWhere = (test: (i: number) => boolean) =>
  Array.from({ length: SESSIONS }, (_, i) => i)
    .filter(test)
    .map((i) => i + 1);

describe("openIptOutput", () => {
  it("finds sessions by port, address and packet count, each with its key and packets", async () => {
    const output = await openIptOutput(files);
    expect(output.sessions).toBe(SESSIONS);
    const first = await output.find(query([]), { ...all, limit: 10 });
    expect(first.sessions.map((s) => s.row)).toEqual(rowsWhere((i) => i < 10));
    expect(first.nextFrom).toBe(11);
    expect(first.sessions[7]).toEqual({
      row: 8,
      packets: packetsOf(7),
      session: { protocol: 17, start: String(T + 7), srcIP: "10.0.0.7", srcPort: 2007, dstIP: dstOf(7), dstPort: 443 },
    });
    const long = await output.find(query([]), { ...all, minPackets: 4 });
    expect(long.sessions.map((s) => s.row)).toEqual(rowsWhere((i) => packetsOf(i) >= 4));
    expect(long.nextFrom).toBeNull();
    const https = await output.find(query([443], [{ text: "192.0.2.1", whole: true }]), all);
    expect(https.sessions.map((s) => s.row)).toEqual(rowsWhere((i) => portOf(i) === 443 && dstOf(i) === "192.0.2.1"));
    const prefix = await output.find(query([], [{ text: "10.0.0.14", whole: false }]), all);
    expect(prefix.sessions.map((s) => s.row)).toEqual(rowsWhere((i) => String(i).startsWith("14")));
  });

  it("stops at its row budget and goes on from where it stopped", async () => {
    const output = await openIptOutput(files);
    const last = query([], [{ text: "10.0.0.149", whole: true }]);
    const start = await output.find(last, { ...all, scan: 100 });
    expect(start).toEqual({ sessions: [], nextFrom: 101 });
    const end = await output.find(last, { ...all, from: 101, scan: 100 });
    expect(end.sessions.map((s) => s.row)).toEqual([150]);
    expect(end.nextFrom).toBeNull();
  });

  it("reads the series of chosen rows, as many gaps as asked, in row order", async () => {
    const output = await openIptOutput(files);
    const series = await output.series([150, 4, 2, 999, 4], 2);
    expect(series.map((s) => s.row)).toEqual([2, 4, 150]);
    // Row 4 is session 3: 4 packets, 4 ms apart; row 150 is session 149: 2 packets, 150 ms apart.
    expect(series[1]).toMatchObject({ packets: 4, gaps: [0.004, 0.004], session: { srcIP: "10.0.0.3" } });
    expect(series[2]).toMatchObject({ packets: 2, gaps: [0.15] });
    expect(series[0]).toMatchObject({ packets: 2, gaps: [0.002] });
  });

  it("refuses files that are not one output, and names a value that is no number", async () => {
    const lines = fs.readFileSync(files.ipt.path, "utf8").split("\n");
    const short = path.join(dir, "short.txt");
    fs.writeFileSync(short, lines.slice(1).join("\n"));
    await expect(openIptOutput({ ...files, ipt: { path: short, label: "ipt.txt" } })).rejects.toThrow(
      "ipt.txt has 149 lines and features.csv 150 rows: they are not one output (line k of one is row k of the other)",
    );
    const odd = path.join(dir, "odd.txt");
    lines[3] = "0.004,x,0.004";
    fs.writeFileSync(odd, lines.join("\n"));
    const output = await openIptOutput({ ...files, ipt: { path: odd, label: "ipt.txt" } });
    await expect(output.series([4], 10)).rejects.toThrow('ipt.txt line 4, value 2: "x" is no number of seconds');
    const noKey = path.join(dir, "no-key.csv");
    fs.writeFileSync(noKey, "a,b\n1,2\n");
    await expect(openIptOutput({ ...files, csv: { path: noKey, label: "features.csv" } })).rejects.toThrow(
      "features.csv has no session key columns (protocol, ts, srcIP, srcPrt, dstIP, dstPrt)",
    );
  });
});
