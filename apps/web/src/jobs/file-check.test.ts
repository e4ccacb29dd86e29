// The client-side file check: extensions, and formats sniffed from magic bytes before upload.
import { sniffFileKind } from "@tracemill/core/file-kind";
import { describe, expect, it } from "vitest";
import { checkFile, extensionError } from "./file-check.js";

/** The kind checkFile goes by: the shared sniffer's, on a start that may be cut anywhere. */
const sniffFormat = (head: Uint8Array) => sniffFileKind(head).kind;

const bytes = (...values: number[]) => new Uint8Array(values);
const pad = (head: Uint8Array, length = 24) => {
  const out = new Uint8Array(length);
  out.set(head);
  return out;
};

describe("extensionError", () => {
  it.each(["a.pcap", "A.PCAP", "b.cap", "c.dmp", "d.pcapng", "e.erf", "f.pcap.gz"])(
    "accepts the capture %s",
    (name) => {
      expect(extensionError(name, "capture")).toBeUndefined();
    },
  );
  it.each(["notes.txt", "a.csv", "pcap"])("rejects %s as a capture", (name) => {
    expect(extensionError(name, "capture")).toMatch(/not a capture file/);
  });
  it("accepts alert and classification files by their names", () => {
    expect(extensionError("snort.u2", "alerts")).toBeUndefined();
    expect(extensionError("eve.json", "alerts")).toBeUndefined();
    expect(extensionError("a.pcap", "alerts")).toMatch(/not an alert file/);
    expect(extensionError("classification.config", "classification")).toBeUndefined();
    expect(extensionError("x.pcap", "classification")).toMatch(/not a classification file/);
  });
});

describe("sniffFormat", () => {
  it("knows pcap in both byte orders and resolutions, pcapng and gzip", () => {
    expect(sniffFormat(pad(bytes(0xd4, 0xc3, 0xb2, 0xa1)))).toBe("pcap");
    expect(sniffFormat(pad(bytes(0xa1, 0xb2, 0xc3, 0xd4)))).toBe("pcap");
    expect(sniffFormat(pad(bytes(0x4d, 0x3c, 0xb2, 0xa1)))).toBe("pcap");
    expect(sniffFormat(pad(bytes(0x0a, 0x0d, 0x0d, 0x0a)))).toBe("pcapng");
    expect(sniffFormat(bytes(0x1f, 0x8b, 8, 0))).toBe("gzip");
  });
  it("knows an ERF record header and a unified2 record", () => {
    // ERF: 8-byte timestamp, type 2 (Ethernet), flags, rlen 0x0060.
    expect(sniffFormat(pad(bytes(1, 2, 3, 4, 5, 6, 7, 8, 2, 4, 0x00, 0x60, 0, 0, 0, 0x4e)))).toBe("erf");
    // unified2: type 7 (event), length 52.
    expect(sniffFormat(pad(bytes(0, 0, 0, 7, 0, 0, 0, 52)))).toBe("unified2");
  });
  it("knows EVE JSON and a classification file, and nothing else", () => {
    expect(sniffFormat(new TextEncoder().encode('  {"event_type":"alert"}'))).toBe("eve-json");
    expect(sniffFormat(new TextEncoder().encode("config classification: bad-unknown,Bad,2\n"))).toBe("classification");
    expect(sniffFormat(new TextEncoder().encode("hello world, plain"))).toBeUndefined();
  });
});

describe("checkFile", () => {
  const file = (name: string, content: Uint8Array | string) => new File([content as BlobPart], name);
  it("accepts a real pcap header and rejects text named .pcap", async () => {
    expect(await checkFile(file("a.pcap", pad(bytes(0xd4, 0xc3, 0xb2, 0xa1))), "capture")).toBeUndefined();
    expect(await checkFile(file("a.pcap", "just some text here"), "capture")).toMatch(/does not look like a pcap/);
  });
  it("rejects an empty file and a wrong extension before reading", async () => {
    expect(await checkFile(file("a.pcap", ""), "capture")).toMatch(/empty/);
    expect(await checkFile(file("a.docx", pad(bytes(0xd4, 0xc3, 0xb2, 0xa1))), "capture")).toMatch(/not a capture/);
  });
  it("checks alert files by content", async () => {
    expect(await checkFile(file("a.u2", pad(bytes(0, 0, 0, 104, 0, 0, 0, 60))), "alerts")).toBeUndefined();
    expect(await checkFile(file("a.u2", pad(bytes(0xd4, 0xc3, 0xb2, 0xa1))), "alerts")).toMatch(/unified2 or EVE/);
  });
});
