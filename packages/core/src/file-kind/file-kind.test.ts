// The one file-kind sniffer over the real fixtures' starts (expected kinds from capinfos -t and the fixtures'
// sources, not from this code) and over synthetic starts for every rule and refusal. The engine's capture sniff
// (sniffCaptureFormat) must agree on every capture.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { fixturePath, fixturesDir } from "../../../../test/helpers/fixtures.js";
import { SNIFF_BYTES, sniffCaptureFormat } from "../capture/sniff.js";
import {
  FILE_KIND_HEAD_BYTES,
  type FileKind,
  fileKindMessages,
  sizeProblem,
  sniffFileKind,
  sniffGzipContent,
} from "./index.js";

const text = (s: string) => Uint8Array.from(Buffer.from(s, "utf8"));
const kindOf = (head: Uint8Array, complete = false) => sniffFileKind(head, { complete });

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(file) : [file];
  });
}
const fixtures = filesUnder(fixturesDir).map((file) => path.relative(fixturesDir, file));

/**
 * capinfos -t names every capture fixture by its extension's format (pcap, "nanosecond pcap", pcapng, "Endace ERF
 * capture") except the misnamed one; the two it refuses, it refuses for their versions.
 */
function expectedCapture(name: string): { kind: FileKind; problem?: string } | undefined {
  if (name.endsWith("misnamed_pcapng-as-pcap_oscar.pcap")) return { kind: "pcapng" };
  // capinfos: "pcap: major version 1 unsupported"
  if (name.endsWith("bad_pcap-invalid-version-1.pcap")) {
    return { kind: "pcap", problem: "The pcap file has an unsupported version 1 (expected 2.4)" };
  }
  // capinfos: "pcapng: unknown SHB version 0.1"
  if (name.endsWith("bad_pcapng-invalid-vers-1.pcapng")) {
    return { kind: "pcapng", problem: "The pcapng file has an unsupported version 0 (expected 1.0)" };
  }
  const ext = path.extname(name);
  return ext === ".pcap" || ext === ".pcapng" || ext === ".erf" ? { kind: ext.slice(1) as FileKind } : undefined;
}

describe("the fixtures' starts", () => {
  const captures = fixtures.filter((name) => expectedCapture(name));

  it.each(captures)("%s: the same kind from 64 bytes, the engine's 4 KiB, 64 KiB and the whole file", (name) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(fixturesDir, name)));
    const expected = expectedCapture(name)!;
    for (const length of [64, SNIFF_BYTES, FILE_KIND_HEAD_BYTES]) {
      expect(kindOf(bytes.subarray(0, length), length >= bytes.length), `${length} bytes`).toEqual(expected);
    }
    expect(kindOf(bytes, true)).toEqual(expected);
    expect(sniffCaptureFormat(bytes.subarray(0, SNIFF_BYTES))).toBe(expected.kind);
  });

  it("covers the capture library", () => {
    expect(captures.length).toBeGreaterThan(90);
    expect(captures.filter((name) => name.endsWith(".erf"))).toHaveLength(2);
  });

  it.each([
    ["alerts/pyidstools_ipv6-alert.unified2", "unified2"],
    ["alerts/pyidstools_merged.u2", "unified2"],
    ["alerts/pyidstools_multi-record-event.u2", "unified2"],
    ["alerts/snort_unified2-legacy.u2", "unified2"],
    ["alerts/eve-bug-28.json", "eve-json"],
    ["alerts/eve-layouts.json", "eve-json"],
    ["sanitize/eve-flows.json", "eve-json"],
    ["alerts/classification.config", "classification"],
    ["alerts/pyidstools_classification.config", "classification"],
    ...fixtures.filter((name) => name.endsWith(".rules")).map((name) => [name, "rules"]),
  ])("%s is %s, from its start and whole", (name, kind) => {
    const bytes = new Uint8Array(fs.readFileSync(fixturePath(name)));
    expect(kindOf(bytes.subarray(0, FILE_KIND_HEAD_BYTES), bytes.length <= FILE_KIND_HEAD_BYTES)).toEqual({ kind });
    expect(kindOf(bytes, true)).toEqual({ kind });
  });

  it("takes a unified2 file whose first record is whole, and names one cut short", () => {
    const bytes = new Uint8Array(fs.readFileSync(fixturePath("pyidstools_ipv6-alert.unified2")));
    // The first record header (xxd): type 105 (IPv6 event v2), body length 84, big-endian; 8 + 84 bytes in all.
    expect([...bytes.subarray(0, 8)]).toEqual([0, 0, 0, 105, 0, 0, 0, 84]);
    expect(sizeProblem("unified2", bytes, 92)).toBeUndefined();
    expect(sizeProblem("unified2", bytes, 91)).toBe("The unified2 file is truncated: its first record is incomplete");
    expect(sizeProblem("pcap", bytes, 1)).toBeUndefined();
  });

  it("refuses JSON documents that are not EVE lines, and CSV", () => {
    const refused = fixtures.filter((name) => /observed.*\.json$|\.csv$/.test(name));
    expect(refused.length).toBeGreaterThan(20);
    for (const name of refused) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(fixturesDir, name)));
      expect(kindOf(bytes.subarray(0, FILE_KIND_HEAD_BYTES)), name).toEqual({
        kind: undefined,
        problem: fileKindMessages.unrecognised,
      });
    }
  });

  it("sees gzip, then the rules inside the ET Open archive", () => {
    const gz = fs.readFileSync(fixturePath("sanitize/et-open/et-open-2024-04-21.rules.gz"));
    expect(kindOf(gz.subarray(0, FILE_KIND_HEAD_BYTES))).toEqual({ kind: "gzip" });
    const inflated = zlib.gunzipSync(gz).subarray(0, FILE_KIND_HEAD_BYTES);
    expect(sniffGzipContent(inflated)).toEqual({ kind: "rules" });
  });
});

/** A pcap file header: magic as stored in the file's byte order, version, snaplen 65535, Ethernet. */
function pcapHeader(magic: number, bigEndian: boolean, major = 2): Uint8Array {
  const out = new Uint8Array(24);
  const v = new DataView(out.buffer);
  v.setUint32(0, magic, !bigEndian);
  v.setUint16(4, major, !bigEndian);
  v.setUint16(6, 4, !bigEndian);
  v.setUint32(16, 65535, !bigEndian);
  v.setUint32(20, 1, !bigEndian);
  return out;
}

/** A section header block start: block type, length 28, byte-order magic, version. */
function pcapngHeader(bigEndian: boolean, major = 1, order = 0x1a2b3c4d): Uint8Array {
  const out = new Uint8Array(28);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x0a0d0d0a, false);
  v.setUint32(4, 28, !bigEndian);
  v.setUint32(8, order, !bigEndian);
  v.setUint16(12, major, !bigEndian);
  return out;
}

/** One ERF record with `data` bytes after its header (2 more for Ethernet types). */
function erf(type: number, seconds: number, data = 40): Uint8Array {
  const rlen = 16 + ([2, 11, 16, 20].includes(type) ? 2 : 0) + data;
  const out = new Uint8Array(rlen);
  const v = new DataView(out.buffer);
  v.setUint32(4, seconds, true);
  v.setUint8(8, type);
  v.setUint16(10, rlen, false);
  v.setUint16(14, data, false);
  return out;
}
const join = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const T = 1_700_000_000;

describe("sniffFileKind", () => {
  it("knows pcap in both byte orders and resolutions, and refuses a short header or another version", () => {
    for (const magic of [0xa1b2c3d4, 0xa1b23c4d]) {
      for (const bigEndian of [false, true]) expect(kindOf(pcapHeader(magic, bigEndian))).toEqual({ kind: "pcap" });
    }
    expect(kindOf(pcapHeader(0xa1b2c3d4, true, 3))).toEqual({
      kind: "pcap",
      problem: "The pcap file has an unsupported version 3 (expected 2.4)",
    });
    expect(kindOf(pcapHeader(0xa1b2c3d4, false).subarray(0, 23), true)).toEqual({
      kind: "pcap",
      problem: "The pcap file is truncated: its 24-byte header is incomplete",
    });
  });

  it("knows pcapng in both byte orders and refuses a short header, a bad byte-order magic or version 2", () => {
    expect(kindOf(pcapngHeader(false))).toEqual({ kind: "pcapng" });
    expect(kindOf(pcapngHeader(true))).toEqual({ kind: "pcapng" });
    expect(kindOf(pcapngHeader(false).subarray(0, 15)).problem).toBe(
      "The pcapng file is truncated: its section header is incomplete",
    );
    expect(kindOf(pcapngHeader(false, 1, 0x11223344)).problem).toBe(
      "The pcapng file has an invalid byte-order magic in its section header",
    );
    expect(kindOf(pcapngHeader(true, 2)).problem).toBe("The pcapng file has an unsupported version 2 (expected 1.0)");
  });

  it("knows ERF by its first records, a provenance record first whatever its time (docs/formats.md)", () => {
    expect(kindOf(join(erf(2, T), erf(2, T + 5), erf(22, T + 9)))).toEqual({ kind: "erf" });
    // Provenance written a year before the packets, then padding: still ERF.
    expect(kindOf(join(erf(27, T - 31_536_000, 100), erf(48, T, 8), erf(2, T + 1)))).toEqual({ kind: "erf" });
    // Packets more than a day apart, an undefined type, a first record that carries no packet, a short record.
    expect(kindOf(join(erf(2, T), erf(2, T + 86_401))).kind).toBeUndefined();
    expect(kindOf(join(erf(2, T), erf(30, T))).kind).toBeUndefined();
    expect(kindOf(join(erf(1, T), erf(2, T))).kind).toBeUndefined();
    const short = erf(2, T);
    new DataView(short.buffer).setUint16(10, 17, false);
    expect(kindOf(short).kind).toBeUndefined();
  });

  it("takes one ERF record cut by the end of a start, not by the end of the whole file", () => {
    const cut = erf(2, T, 200).subarray(0, 64);
    expect(kindOf(cut, false)).toEqual({ kind: "erf" });
    expect(kindOf(cut, true).kind).toBeUndefined();
    expect(kindOf(erf(2, T, 200), true)).toEqual({ kind: "erf" });
  });

  it("knows a unified2 record header, and does not take it for ERF", () => {
    const event = new Uint8Array(60);
    new DataView(event.buffer).setUint32(0, 7, false);
    new DataView(event.buffer).setUint32(4, 52, false);
    expect(kindOf(event)).toEqual({ kind: "unified2" });
    new DataView(event.buffer).setUint32(0, 8, false);
    expect(kindOf(event).kind).toBeUndefined();
    new DataView(event.buffer).setUint32(0, 7, false);
    new DataView(event.buffer).setUint32(4, (1 << 20) + 1, false);
    expect(kindOf(event).kind).toBeUndefined();
  });

  it("says gzip, and what the gzip file holds once inflated", () => {
    const pcap = pcapHeader(0xa1b2c3d4, false);
    const gz = new Uint8Array(zlib.gzipSync(pcap));
    expect(kindOf(gz)).toEqual({ kind: "gzip" });
    expect(sniffGzipContent(zlib.gunzipSync(gz), { complete: true })).toEqual({ kind: "pcap" });
    const refused = { kind: undefined, problem: fileKindMessages.gzipWithout };
    expect(sniffGzipContent(gz)).toEqual(refused);
    expect(sniffGzipContent(new Uint8Array(0))).toEqual(refused);
    expect(sniffGzipContent(text("hello"))).toEqual(refused);
  });

  it("knows EVE lines by a whole first line or by how a cut one starts", () => {
    const eve = '{"src_ip":"10.0.0.1","event_type":"alert","timestamp":"2024-01-01T00:00:00.000000+0000"}\n';
    expect(kindOf(text(eve))).toEqual({ kind: "eve-json" });
    expect(kindOf(text(eve.trimEnd()), true)).toEqual({ kind: "eve-json" });
    expect(kindOf(text('\n{"timestamp":"2024-01-01T00:00:0'))).toEqual({ kind: "eve-json" });
    expect(kindOf(text('{"src_ip":"10.0.0.1","dest_ip":"10.0.0.2"}\n')).kind).toBeUndefined();
    expect(kindOf(text('{"src_ip":"10.0.0.1","dest_')).kind).toBeUndefined();
    expect(kindOf(text('{\n  "timestamp": "2024"\n}\n')).kind).toBeUndefined();
  });

  it("knows rules (also commented out) and classification files, a cut last line aside", () => {
    const rule = 'alert tcp $HOME_NET any -> $EXTERNAL_NET 80 (msg:"x"; sid:1;)\n';
    expect(kindOf(text(`# ET rules\n\n${rule}`))).toEqual({ kind: "rules" });
    expect(kindOf(text(`#${rule}`))).toEqual({ kind: "rules" });
    expect(kindOf(text("  # drop udp any any <> any any (sid:2;)\n"))).toEqual({ kind: "rules" });
    expect(kindOf(text("alert tcp any any any any\n")).kind).toBeUndefined();
    const classification = "# classes\nconfig classification: bad-unknown,Potentially Bad Traffic,2\n";
    expect(kindOf(text(classification))).toEqual({ kind: "classification" });
    expect(kindOf(text(`${classification}config classif`))).toEqual({ kind: "classification" });
    expect(kindOf(text(`${classification}config classif`), true).kind).toBeUndefined();
    expect(kindOf(text("# only comments\n# here\n")).kind).toBeUndefined();
  });

  it("refuses empty, binary and other text with the server's words", () => {
    expect(kindOf(new Uint8Array(0))).toEqual({ kind: undefined, problem: "The file is empty" });
    expect(kindOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))).toEqual({
      kind: undefined,
      problem:
        "Unrecognised file format: expected a capture (pcap, pcapng or ERF), unified2 alerts, Suricata EVE JSON, a classification.config or a rules file, optionally gzip-compressed",
    });
    expect(kindOf(text("config classification: a,b,1\n\0")).kind).toBeUndefined();
    expect(kindOf(text("just some words, nothing else\n")).kind).toBeUndefined();
  });

  it("judges a start of blank lines or spaces in linear time", () => {
    // A pattern over the whole text (/m, \s on both sides of an optional "#") would backtrack with the cube of the lines.
    for (const filler of ["\n", "\n ", " ", "\r\n# \t"]) {
      const head = text(filler.repeat(Math.ceil(FILE_KIND_HEAD_BYTES / filler.length)).slice(0, FILE_KIND_HEAD_BYTES));
      const started = performance.now();
      expect(kindOf(head).kind).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});
