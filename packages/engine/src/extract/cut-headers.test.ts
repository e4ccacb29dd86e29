// Packets the capture (snaplen) cut inside their headers: those with a complete IP header and ports count in their
// session, with only what of the TCP header was captured; the others are truncated, counted alike by `extract` and
// `info`. Packets, bytes and truncated counts are compared with tshark's fields; flags and header lengths with
// hand arithmetic on the packets as built.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FEATURE_COLUMNS, TcpFlag } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp, udp } from "../../../core/src/testing/index.js";
import { summarizeCapture } from "../info/capture-summary.js";
import { extractFeatures } from "./extract-features.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cut-headers-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const { SYN, ACK, PSH, FIN } = TcpFlag;
const client = { src: "10.0.0.1", dst: "10.0.0.2" };
const server = { src: "10.0.0.2", dst: "10.0.0.1" };
const options = [2, 4, 5, 0xb4, 1, 3, 3, 7, 4, 2, 1, 1];
/** Ethernet + IPv4 header bytes before the transport header. */
const IP_END = 14 + 20;

let time = 0;
function cut(frame: Uint8Array, snaplen?: number) {
  time += 1000;
  return capturedPacket(frame, { linkType: 1, tsSec: 1_700_000_000, tsNsec: time, snaplen });
}
const up = (flags: number, payload: number, more: number[] = []) =>
  ethernet(ipv4(client, tcp({ srcPort: 1000, dstPort: 80, flags, payload, options: more })));
const down = (flags: number, payload: number, more: number[] = []) =>
  ethernet(ipv4(server, tcp({ srcPort: 80, dstPort: 1000, flags, payload, options: more })));
const dns = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.9" }, udp({ srcPort: 5353, dstPort: 53, payload: 30 })));

const packets = [
  cut(up(SYN, 0, options)), // whole: IP length 52, headers 20 + 32
  cut(down(SYN | ACK, 0, options), IP_END + 4), // the ports only (34 + 4 bytes): 52, headers 20, no flags
  cut(up(PSH | ACK, 100), IP_END + 13), // up to the data offset: 140, headers 20 + 20, no flags
  cut(down(PSH | ACK, 200), IP_END + 14), // up to the flags: 240, headers 40, PSH ACK
  cut(up(PSH | ACK, 300, options), IP_END + 24), // options cut: 352, headers 20 + 32, PSH ACK
  cut(up(ACK, 0), IP_END + 3), // inside the ports: truncated
  cut(up(ACK, 0), 14 + 10), // inside the IP header: truncated
  cut(up(PSH | ACK, 500), IP_END + 20 + 10), // headers whole, payload cut: 540, headers 40, PSH ACK
  cut(down(FIN | ACK, 0)), // whole: 40, headers 40, FIN ACK
  cut(dns, IP_END + 6), // UDP cut after its ports: 58, headers 28
  cut(dns, IP_END + 2), // UDP cut inside its ports: truncated
];

/** tshark's view of each frame: captured length, IP length and ports when it could read them. */
function tsharkFrames(file: string) {
  const fields = ["frame.cap_len", "ip.src", "ip.len", "tcp.srcport", "tcp.dstport", "udp.srcport", "udp.dstport"];
  const text = execFileSync("tshark", ["-r", file, "-T", "fields", ...fields.flatMap((f) => ["-e", f])], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => {
      const [capLen, src, ipLength, tcpSrc, tcpDst, udpSrc, udpDst] = line.split("\t");
      const ports = tcpSrc ? `tcp ${tcpSrc} ${tcpDst}` : udpSrc ? `udp ${udpSrc} ${udpDst}` : "";
      return { capLen: Number(capLen), src, ipLength: Number(ipLength), ports };
    });
}

describe("packets cut inside their headers", () => {
  const file = path.join(dir, "cut.pcap");
  fs.writeFileSync(file, pcapFile(packets));

  it("count in their session when the IP header and ports are complete", async () => {
    const outDir = fs.mkdtempSync(path.join(dir, "out-"));
    const { summary } = await extractFeatures(file, { outDir });
    const [, ...lines] = fs.readFileSync(path.join(outDir, "features.csv"), "utf8").trimEnd().split("\n");
    const rows = lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [FEATURE_COLUMNS[i], v])));

    // Every frame tshark read ports of is in a session; the others are the truncated ones.
    const frames = tsharkFrames(file);
    const withPorts = frames.filter((f) => f.ports !== "");
    const session = (ports: string) => withPorts.filter((f) => f.ports.split(" ").slice(1).sort().join() === ports);
    const tcpFrames = session("1000,80");
    const up = tcpFrames.filter((f) => f.src === "10.0.0.1");
    const downFrames = tcpFrames.filter((f) => f.src === "10.0.0.2");
    const sum = (list: { ipLength: number }[]) => String(list.reduce((total, f) => total + f.ipLength, 0));
    expect(summary.packets.decoded).toBe(withPorts.length);
    expect(summary.packets.ignored.truncated).toBe(frames.length - withPorts.length);
    expect(summary.packets.ignored.truncated).toBe(3);
    const [tcpRow, udpRow] = rows;
    expect([tcpRow.total_fpackets, tcpRow.total_bpackets, tcpRow.total_fpktl, tcpRow.total_bpktl]).toEqual([
      String(up.length),
      String(downFrames.length),
      sum(up),
      sum(downFrames),
    ]);
    expect([udpRow.total_fpackets, udpRow.total_fpktl]).toEqual(["1", sum(session("53,5353"))]);

    // By hand: flags only of packets with their flags byte (the SYN-ACK and the first PSH are cut before it),
    // header lengths IP 20 + the TCP data offset when captured.
    expect([tcpRow.fpsh_cnt, tcpRow.bpsh_cnt, tcpRow.flow_syn, tcpRow.flow_ack, tcpRow.flow_fin]).toEqual([
      "2",
      "1",
      "1",
      "4",
      "1",
    ]);
    expect([tcpRow.total_fhlen, tcpRow.total_bhlen, udpRow.total_fhlen]).toEqual([
      String(20 + 32 + (20 + 20) + (20 + 32) + 40),
      String(20 + (20 + 20) + (20 + 20)),
      "28",
    ]);
  });

  it("are the frames tshark's conversation table leaves out: those whose TCP header was not captured whole", () => {
    const text = execFileSync("tshark", ["-r", file, "-q", "-z", "conv,tcp"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const conversation = /10\.0\.0\.\d:\d+\s+<->\s+10\.0\.0\.\d:\d+\s+(\d+) \d+ bytes\s+(\d+) \d+ bytes/.exec(text)!;
    // Whole TCP headers: the SYN, the packet whose payload is cut, and the FIN; our session has 7 packets.
    expect(Number(conversation[1]) + Number(conversation[2])).toBe(3);
  });

  it("are counted as truncated alike by info and extract", async () => {
    const outDir = fs.mkdtempSync(path.join(dir, "out-"));
    const { summary } = await extractFeatures(file, { outDir });
    const info = await summarizeCapture(file);
    expect(info.truncated).toBe(summary.packets.ignored.truncated);
    expect(info.snapped).toBe(9);
    expect([info.tcp, info.udp]).toEqual([7, 1]);
  });
});
