// Format sniffing: magic bytes decide, never names; specific errors for empty, gzip and non-capture input.
import { describe, expect, it } from "vitest";
import { openPacketSource, sniffCaptureFormat } from "./sniff.js";

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("sniffCaptureFormat", () => {
  it("knows pcap in both byte orders and resolutions, and pcapng", () => {
    expect(sniffCaptureFormat(bytes(0xd4, 0xc3, 0xb2, 0xa1))).toBe("pcap");
    expect(sniffCaptureFormat(bytes(0xa1, 0xb2, 0xc3, 0xd4))).toBe("pcap");
    expect(sniffCaptureFormat(bytes(0x4d, 0x3c, 0xb2, 0xa1))).toBe("pcap");
    expect(sniffCaptureFormat(bytes(0xa1, 0xb2, 0x3c, 0x4d))).toBe("pcap");
    expect(sniffCaptureFormat(bytes(0x0a, 0x0d, 0x0d, 0x0a))).toBe("pcapng");
  });

  it("recognises ERF by the shape of its first records", () => {
    const erf = new Uint8Array(64);
    const v = new DataView(erf.buffer);
    v.setUint32(4, 1_700_000_000, true);
    v.setUint8(8, 2);
    v.setUint16(10, 64, false);
    expect(sniffCaptureFormat(erf)).toBe("erf");
  });

  it("names the problem with empty, tiny, gzip and other input", () => {
    expect(() => sniffCaptureFormat(bytes())).toThrow("the file is empty (0 bytes): not a capture");
    expect(() => sniffCaptureFormat(bytes(1, 2, 3))).toThrow("the file is too short to be a capture (3 bytes)");
    expect(() => sniffCaptureFormat(bytes(0x1f, 0x8b, 8, 0, 0, 0))).toThrow("gzip-compressed");
    const html = Uint8Array.from("<html><body>hello</body></html>", (c) => c.charCodeAt(0));
    expect(() => sniffCaptureFormat(html)).toThrow(/^not a capture file \(starts with 0x3c68746d\)/);
    expect(() => openPacketSource(html)).toThrow(expect.objectContaining({ code: "BAD_INPUT" }));
  });
});
