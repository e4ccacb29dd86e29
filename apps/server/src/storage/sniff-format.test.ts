// Format sniffing from magic bytes: every accepted container and text format, and the reasons for rejecting others.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkComplete, sniffFormat, UnrecognisedFile } from "./sniff-format.js";

const fixtures = path.resolve(import.meta.dirname, "../../../../test/fixtures/server");
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name));

function pcapHeader(magic: number, bigEndian: boolean, major = 2): Buffer {
  const header = Buffer.alloc(24);
  if (bigEndian) {
    header.writeUInt32BE(magic, 0);
    header.writeUInt16BE(major, 4);
    header.writeUInt16BE(4, 6);
    header.writeUInt32BE(65535, 16);
    header.writeUInt32BE(1, 20);
  } else {
    header.writeUInt32LE(magic, 0);
    header.writeUInt16LE(major, 4);
    header.writeUInt16LE(4, 6);
    header.writeUInt32LE(65535, 16);
    header.writeUInt32LE(1, 20);
  }
  return header;
}

describe("sniffFormat", () => {
  it("recognises pcap in both byte orders and both timestamp resolutions", () => {
    for (const magic of [0xa1b2c3d4, 0xa1b23c4d]) {
      for (const bigEndian of [false, true]) {
        expect(sniffFormat(pcapHeader(magic, bigEndian), true)).toEqual({ format: "pcap", compression: null });
      }
    }
    expect(sniffFormat(fixture("pcap-be-us_pptp.pcap"), true).format).toBe("pcap");
    expect(sniffFormat(fixture("pcap-le-ns_sll_tcp-handshake-nano.pcap"), true).format).toBe("pcap");
  });

  it("rejects a pcap of another major version, naming it", () => {
    expect(() => sniffFormat(fixture("bad_pcap-invalid-version-1.pcap"), true)).toThrow(/unsupported version 1/);
  });

  it("recognises pcapng in both byte orders and rejects other section versions", () => {
    expect(sniffFormat(fixture("pcapng-le_dhcp.pcapng"), true).format).toBe("pcapng");
    expect(sniffFormat(fixture("pcapng-be_dhcp.pcapng"), true).format).toBe("pcapng");
    const other = Buffer.from(fixture("pcapng-le_dhcp.pcapng"));
    other.writeUInt16LE(2, 12);
    expect(() => sniffFormat(other, true)).toThrow(/unsupported version 2/);
  });

  it("recognises ERF from consistent record headers, and not from random bytes", () => {
    expect(sniffFormat(fixture("erf_5-packets.erf"), true).format).toBe("erf");
    expect(() => sniffFormat(Buffer.from("just some words, nothing else\n"), true)).toThrow(UnrecognisedFile);
  });

  it("recognises unified2 and reports a truncated first record once the size is known", () => {
    const u2 = fixture("pyidstools_ipv6-alert.unified2");
    expect(sniffFormat(u2, true).format).toBe("unified2");
    expect(() => checkComplete("unified2", u2.subarray(0, 12), 12)).toThrow(/truncated/);
    expect(() => checkComplete("unified2", u2, u2.length)).not.toThrow();
  });

  it("recognises EVE JSON, classification.config and rules text", () => {
    const eve = '{"timestamp":"2024-01-01T00:00:00.000000+0000","event_type":"alert","src_ip":"10.0.0.1"}\n';
    expect(sniffFormat(Buffer.from(eve), true).format).toBe("eve-json");
    expect(sniffFormat(fixture("classification.config"), true).format).toBe("classification");
    expect(sniffFormat(fixture("bug-28.rules"), true).format).toBe("rules");
  });

  it("looks inside gzip and reports the compressed format", () => {
    expect(sniffFormat(zlib.gzipSync(fixture("raw101_ipv4.pcap")), true)).toEqual({
      format: "pcap",
      compression: "gzip",
    });
    expect(() => sniffFormat(zlib.gzipSync(Buffer.from("hello")), true)).toThrow(/gzip file does not contain/);
  });

  it("rejects empty and unknown files with a reason", () => {
    expect(() => sniffFormat(Buffer.alloc(0), true)).toThrow("The file is empty");
    expect(() => sniffFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), true)).toThrow(
      /Unrecognised file format/,
    );
  });
});
