// Format sniffing from magic bytes: every accepted container and text format, and the reasons for rejecting others.
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { checkComplete, SNIFF_BYTES, sniffFormat, UnrecognisedFile } from "./sniff-format.js";

const fixture = (name: string) => fs.readFileSync(fixturePath(name));

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
  it("recognises pcap in both byte orders and both timestamp resolutions", async () => {
    for (const magic of [0xa1b2c3d4, 0xa1b23c4d]) {
      for (const bigEndian of [false, true]) {
        expect(await sniffFormat(pcapHeader(magic, bigEndian), true)).toEqual({ format: "pcap", compression: null });
      }
    }
    expect((await sniffFormat(fixture("pcap-be-us_pptp.pcap"), true)).format).toBe("pcap");
    expect((await sniffFormat(fixture("pcap-le-ns_sll_tcp-handshake-nano.pcap"), true)).format).toBe("pcap");
  });

  it("rejects a pcap of another major version, naming it", async () => {
    await expect(sniffFormat(fixture("bad_pcap-invalid-version-1.pcap"), true)).rejects.toThrow(
      /unsupported version 1/,
    );
  });

  it("recognises pcapng in both byte orders and rejects other section versions", async () => {
    expect((await sniffFormat(fixture("pcapng-le_dhcp.pcapng"), true)).format).toBe("pcapng");
    expect((await sniffFormat(fixture("pcapng-be_dhcp.pcapng"), true)).format).toBe("pcapng");
    const other = Buffer.from(fixture("pcapng-le_dhcp.pcapng"));
    other.writeUInt16LE(2, 12);
    await expect(sniffFormat(other, true)).rejects.toThrow(/unsupported version 2/);
  });

  it("recognises ERF from consistent record headers, and not from random bytes", async () => {
    expect((await sniffFormat(fixture("erf_5-packets.erf"), true)).format).toBe("erf");
    await expect(sniffFormat(Buffer.from("just some words, nothing else\n"), true)).rejects.toThrow(UnrecognisedFile);
  });

  it("recognises unified2 and reports a truncated first record once the size is known", async () => {
    const u2 = fixture("pyidstools_ipv6-alert.unified2");
    expect((await sniffFormat(u2, true)).format).toBe("unified2");
    expect(() => checkComplete("unified2", u2.subarray(0, 12), 12)).toThrow(/truncated/);
    expect(() => checkComplete("unified2", u2, u2.length)).not.toThrow();
  });

  it("recognises EVE JSON, classification.config and rules text", async () => {
    const eve = '{"timestamp":"2024-01-01T00:00:00.000000+0000","event_type":"alert","src_ip":"10.0.0.1"}\n';
    expect((await sniffFormat(Buffer.from(eve), true)).format).toBe("eve-json");
    expect((await sniffFormat(fixture("classification.config"), true)).format).toBe("classification");
    expect((await sniffFormat(fixture("sanitize/suricata-verify/bug-28/test.rules"), true)).format).toBe("rules");
  });

  it("looks inside gzip and reports the compressed format", async () => {
    expect(await sniffFormat(zlib.gzipSync(fixture("raw101_ipv4.pcap")), true)).toEqual({
      format: "pcap",
      compression: "gzip",
    });
    await expect(sniffFormat(zlib.gzipSync(Buffer.from("hello")), true)).rejects.toThrow(/gzip file does not contain/);
  });

  it("rejects empty and unknown files with a reason", async () => {
    await expect(sniffFormat(Buffer.alloc(0), true)).rejects.toThrow("The file is empty");
    await expect(sniffFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), true)).rejects.toThrow(
      /Unrecognised file format/,
    );
  });
});

describe("sniffFormat on a start made to stall a pattern", () => {
  it("refuses 64 KiB of blank lines at once, not after a regex backtracks on the event loop", async () => {
    // A rules pattern over the whole text (/m, \s on both sides of an optional "#") backtracks with the cube of the lines.
    const started = performance.now();
    await expect(sniffFormat(Buffer.alloc(SNIFF_BYTES, "\n"), false)).rejects.toThrow(/^Unrecognised file format/);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("sniffFormat on a gzip bomb", () => {
  it("inflates only the bytes it looks at, off the event loop", async () => {
    // Gzip members may follow one another: a pcap header, then 128 members of 1 MiB of zeros each. About 128 KiB
    // (the most a sniff is handed) that inflates to 128 MiB, which a whole inflate would do on the event loop.
    const zeros = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    const bomb = Buffer.concat([zlib.gzipSync(pcapHeader(0xa1b2c3d4, false)), ...new Array(128).fill(zeros)]);
    expect(bomb.length).toBeLessThan(160 * 1024);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    const sniffed = await Promise.all(new Array(8).fill(0).map(() => sniffFormat(bomb, false)));
    const elapsed = performance.now() - started;
    delay.disable();
    expect(sniffed).toEqual(new Array(8).fill({ format: "pcap", compression: "gzip" }));
    // A whole inflate of one on the event loop would stall it many times longer than this bound.
    expect(delay.max / 1e6).toBeLessThan(100);
    expect(elapsed).toBeLessThan(1000);
  });

  it("still reads a gzip start cut mid-stream, and refuses a damaged one", async () => {
    const whole = zlib.gzipSync(Buffer.concat([pcapHeader(0xa1b2c3d4, true), Buffer.alloc(200_000, 7)]));
    expect(await sniffFormat(whole.subarray(0, 100), false)).toEqual({ format: "pcap", compression: "gzip" });
    const damaged = Buffer.from(whole);
    damaged.fill(0xff, 10, 40);
    await expect(sniffFormat(damaged, false)).rejects.toThrow(
      "The gzip file is damaged: its start cannot be decompressed",
    );
  });
});
