// tracemill info: capinfos' facts and tshark's protocol counts for real captures, gzip input, and one-line errors
// naming the file, offset and reason for damaged and non-capture input.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import { repoRoot, runCli } from "./run-cli.js";

const fixtures = path.join(repoRoot, "test/fixtures/capture");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-info-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function info(file: string) {
  const result = runCli(["info", "--json", file]);
  return { ...result, json: result.stdout ? JSON.parse(result.stdout) : undefined };
}

/** Packets with IPv4, IPv6, TCP and UDP as tshark sees them (TCP/UDP not counted inside ICMP errors). */
function tsharkCounts(file: string): number[] {
  const fields = ["ip.src", "ipv6.src", "tcp.srcport", "udp.srcport", "icmp.type", "icmpv6.type"];
  const run = spawnSync("tshark", ["-r", file, "-T", "fields", ...fields.flatMap((f) => ["-e", f])], {
    encoding: "utf8",
  });
  const rows = run.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t"));
  const icmp = (r: string[]) => r[4] !== "" || r[5] !== "";
  return [
    rows.filter((r) => r[0] !== "").length,
    rows.filter((r) => r[1] !== "").length,
    rows.filter((r) => r[2] !== "" && !icmp(r)).length,
    rows.filter((r) => r[3] !== "" && !icmp(r)).length,
  ];
}

describe("tracemill info", () => {
  it("gives capinfos' packets, bytes, first/last time and duration of an ERF capture", () => {
    const { status, json } = info(path.join(fixtures, "formats/erf_100-packets.erf"));
    expect(status).toBe(0);
    expect(json).toMatchObject({
      format: "erf",
      packets: 100,
      bytes: 30960,
      first: "2004-09-16T00:00:01.000721395Z",
      last: "2004-09-16T00:00:01.028488457Z",
      duration: "0.027767062",
      linkTypes: [{ linkType: 1, name: "Ethernet", packets: 100 }],
      // Cut by a snap length, but none before its ports (tshark reads the ports of every TCP and UDP packet).
      truncated: 0,
      malformed: 0,
      complete: true,
    });
    expect(json.interfaces.map((i: { name: string }) => i.name)).toEqual(["port A", "port B"]);
  });

  it("lists a big-endian pcapng's interfaces and link types", () => {
    const { json } = info(path.join(fixtures, "formats/pcapng-be_complex.pcapng"));
    expect(json).toMatchObject({ format: "pcapng", byteOrder: "big-endian", sections: 1, packets: 5 });
    expect(json.interfaces.map((i: { linkType: number }) => i.linkType)).toEqual([1, 0, 1]);
    expect(json.linkTypes.map((l: { linkType: number }) => l.linkType)).toEqual([0, 1]);
  });

  for (const capture of ["attacks/stratosphere-malicious-7.pcap", "formats/sll_kakaotalk-chat.pcap"]) {
    it(`counts IPv4, IPv6, TCP and UDP of ${path.basename(capture)} as tshark does`, () => {
      const file = path.join(fixtures, capture);
      const { json } = info(file);
      expect([json.ipv4, json.ipv6, json.tcp, json.udp]).toEqual(tsharkCounts(file));
      expect(json.tcp + json.udp + json.other).toBe(json.packets);
    });
  }

  it("counts truncated packets as extract does: cut before the IP header and ports are complete", () => {
    // Cut inside the IP header, inside the ports, after the ports, and in the payload: only the first two are
    // truncated (in no session); all four are shorter than on the wire.
    const segment = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 1, dstPort: 2, payload: 100 })));
    const file = path.join(dir, "snapped.pcap");
    fs.writeFileSync(
      file,
      pcapFile(
        [24, 14 + 20 + 3, 14 + 20 + 4, 14 + 20 + 30].map((snaplen) =>
          capturedPacket(segment, { linkType: 1, snaplen }),
        ),
      ),
    );
    expect(runCli(["extract", file, "-o", path.join(dir, "snapped.csv")]).status).toBe(0);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, "snapped.summary.json"), "utf8"));
    const { json } = info(file);
    expect([json.truncated, json.snapped, json.tcp]).toEqual([2, 4, 2]);
    expect(summary.packets.ignored.truncated).toBe(json.truncated);
    expect(summary.packets.decoded).toBe(json.tcp);
    expect(runCli(["info", file]).stdout).toMatch(
      /Truncated:\s+2 \(cut before the ports: in no session\), 4 shorter than on the wire\n/,
    );
  });

  it("prints a readable summary and reads gzip-compressed captures", () => {
    const file = path.join(dir, "dvwa.pcapng.gz");
    fs.writeFileSync(file, zlib.gzipSync(fs.readFileSync(path.join(fixtures, "attacks/dvwa-web-attacks.pcapng"))));
    const result = runCli(["info", file]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("pcapng (gzip), little-endian, 1 section");
    expect(result.stdout).toMatch(/Packets:\s+64\n/);
    expect(result.stdout).toMatch(/Duration:\s+70\.357296258 s\n/);
    expect(result.stdout).toMatch(/Complete:\s+yes\n/);
  });

  it("prints what it read of a damaged capture and exits 1 naming the file, offset and reason", () => {
    const bytes = fs.readFileSync(path.join(fixtures, "attacks/eternalblue-scan.pcap"));
    const file = path.join(dir, "cut.pcap");
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 30));
    const { status, stderr, json } = info(file);
    expect(status).toBe(1);
    expect(json).toMatchObject({ packets: 22, complete: false, damage: { offset: expect.any(Number) } });
    expect(stderr).toBe(
      `tracemill: ${file}: damaged capture at byte ${json.damage.offset} (after 22 packets): truncated packet record: ${bytes.length - json.damage.offset} bytes needed, the file ends after ${bytes.length - 30 - json.damage.offset}\n`,
    );
  });

  it("exits 1 with a specific message for an empty file, a non-capture named .pcap and a missing file", () => {
    const empty = path.join(dir, "empty.pcap");
    fs.writeFileSync(empty, "");
    expect(runCli(["info", empty]).stderr).toBe(`tracemill: ${empty}: the file is empty (0 bytes): not a capture\n`);
    const text = path.join(dir, "readme.pcap");
    fs.writeFileSync(text, "This is a text file, not a packet capture.\n");
    const result = runCli(["info", text]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `tracemill: ${text}: not a capture file (starts with 0x54686973): pcap, pcapng and ERF are read\n`,
    );
    expect(runCli(["info", path.join(dir, "missing.pcap")]).stderr).toMatch(
      /missing\.pcap: cannot open the file \(ENOENT\)/,
    );
  });
});
