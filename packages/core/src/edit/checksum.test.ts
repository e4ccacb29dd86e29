import { describe, expect, it } from "vitest";
import { addReplacement, adjustChecksum, checksumOf, sumWords } from "./checksum.js";

// An IPv4 header whose checksum (b861) is the textbook example.
const header = Uint8Array.from([
  0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00,
  0xc7,
]);

describe("Internet checksum", () => {
  it("computes the textbook IPv4 header checksum", () => {
    expect(checksumOf(sumWords(header, 0, 20))).toBe(0xb861);
  });

  it("pads an odd last byte with zero", () => {
    expect(checksumOf(sumWords(Uint8Array.from([0x01, 0x02, 0x03]), 0, 3))).toBe(~(0x0102 + 0x0300) & 0xffff);
  });

  it("adjusts incrementally to the same value as a full recomputation", () => {
    const packet = header.slice();
    packet[10] = 0xb8;
    packet[11] = 0x61;
    const replacement = Uint8Array.from([10, 20, 30, 40]);
    const delta = addReplacement(0, packet, 12, replacement);
    packet.set(replacement, 12);
    const adjusted = adjustChecksum(0xb861, delta);
    packet[10] = 0;
    packet[11] = 0;
    expect(adjusted).toBe(checksumOf(sumWords(packet, 0, 20)));
  });
});
