// Image rows: bytes from the IP header on, packet after packet, addresses and ports zeroed, clipped at 280.
import { describe, expect, it } from "vitest";
import { createDecodedPacket, type DecodedPacket, DecodeKind } from "../decode/decoded-packet.js";
import { IMAGE_ROW_BYTES, ImageRows } from "./image-row.js";

function decoded(fields: Partial<DecodedPacket>): DecodedPacket {
  return { ...createDecodedPacket(), ...fields };
}

/** An Ethernet frame holding an IPv4 (20-byte header) TCP segment (20-byte header) with `payload` bytes. */
function ipv4TcpFrame(payload: number, trailer = 0): { data: Uint8Array; packet: DecodedPacket } {
  const ipLength = 40 + payload;
  const data = new Uint8Array(14 + ipLength + trailer);
  for (let i = 0; i < data.length; i++) data[i] = (i % 251) + 1;
  data[14] = 0x45;
  data[16] = ipLength >> 8;
  data[17] = ipLength & 0xff;
  data[23] = 6;
  const packet = decoded({
    kind: DecodeKind.Tcp,
    ipVersion: 4,
    protocol: 6,
    ipOffset: 14,
    ipHeaderLength: 20,
    transportOffset: 34,
    transportHeaderLength: 20,
    ipLength,
  });
  return { data, packet };
}

function ipv6UdpFrame(payload: number): { data: Uint8Array; packet: DecodedPacket } {
  const ipLength = 48 + payload;
  const data = new Uint8Array(14 + ipLength);
  for (let i = 0; i < data.length; i++) data[i] = 200 + (i % 50);
  data[14] = 0x60;
  const packet = decoded({
    kind: DecodeKind.Udp,
    ipVersion: 6,
    protocol: 17,
    ipOffset: 14,
    ipHeaderLength: 40,
    transportOffset: 54,
    transportHeaderLength: 8,
    ipLength,
  });
  return { data, packet };
}

/** Slot 3's row, over 280 zero bytes placed at an offset so that writes outside the row would show. */
interface Row {
  rows: ImageRows;
  bytes: Uint8Array;
  filled: number;
  full: boolean;
}

function newRow(): Row {
  const target = new Uint8Array(IMAGE_ROW_BYTES + 20);
  const rows = new ImageRows();
  rows.start(3, target, 10);
  return {
    rows,
    bytes: target.subarray(10, 10 + IMAGE_ROW_BYTES),
    get filled() {
      return rows.filled(3);
    },
    get full() {
      return rows.filling[3] === 0;
    },
  };
}

function append(row: Row, data: Uint8Array, packet: DecodedPacket, keepAddresses: boolean): boolean {
  return row.rows.append(3, data, 0, data.length, packet, keepAddresses);
}

/** The bytes a row must hold for one packet: its IP bytes with the given ranges (relative to the IP header) zeroed. */
function expected(data: Uint8Array, ranges: [number, number][]): Uint8Array {
  const bytes = data.slice(14);
  for (const [from, to] of ranges) bytes.fill(0, from, to);
  return bytes;
}

describe("ImageRows", () => {
  it("copies an IPv4 TCP packet from its IP header with addresses and ports zeroed, zero-padded", () => {
    const { data, packet } = ipv4TcpFrame(10);
    const row = newRow();
    append(row, data, packet, false);
    const want = new Uint8Array(IMAGE_ROW_BYTES);
    want.set(
      expected(data, [
        [12, 20],
        [20, 24],
      ]),
    );
    expect(row.filled).toBe(50);
    expect(Array.from(row.bytes)).toEqual(Array.from(want));
  });

  it("keeps the addresses and ports with keepAddresses", () => {
    const { data, packet } = ipv4TcpFrame(10);
    const row = newRow();
    append(row, data, packet, true);
    expect(Array.from(row.bytes.subarray(0, 50))).toEqual(Array.from(data.subarray(14)));
  });

  it("leaves out link-layer padding after the IP length", () => {
    const { data, packet } = ipv4TcpFrame(0, 6);
    const row = newRow();
    append(row, data, packet, true);
    expect(row.filled).toBe(40);
    expect(row.bytes[40]).toBe(0);
  });

  it("zeroes IPv6 addresses and UDP ports", () => {
    const { data, packet } = ipv6UdpFrame(4);
    const row = newRow();
    append(row, data, packet, false);
    const want = expected(data, [
      [8, 40],
      [40, 44],
    ]);
    expect(Array.from(row.bytes.subarray(0, 52))).toEqual(Array.from(want));
    expect(row.bytes.subarray(52).every((b) => b === 0)).toBe(true);
  });

  it("appends packet after packet and stops at 280 bytes, zeroing only inside the copied part", () => {
    const row = newRow();
    const first = ipv4TcpFrame(200);
    append(row, first.data, first.packet, false);
    expect(row.filled).toBe(240);
    // The second packet only fits up to byte 40 of its IP header + TCP header: addresses and ports still zeroed.
    const second = ipv6UdpFrame(100);
    expect(row.full).toBe(false);
    expect(append(row, second.data, second.packet, false)).toBe(true);
    expect(row.full).toBe(true);
    const want = new Uint8Array(IMAGE_ROW_BYTES);
    want.set(
      expected(first.data, [
        [12, 20],
        [20, 24],
      ]),
    );
    want.set(expected(second.data, [[8, 40]]).subarray(0, 40), 240);
    expect(Array.from(row.bytes)).toEqual(Array.from(want));
    const third = ipv4TcpFrame(0);
    expect(append(row, third.data, third.packet, false)).toBe(false);
    expect(Array.from(row.bytes)).toEqual(Array.from(want));
    // Ending the session finds the row final already: nothing to clear.
    expect(row.rows.end(3)).toBe(false);
    expect(Array.from(row.bytes)).toEqual(Array.from(want));
  });

  it("clips the zeroed range when a packet's copy ends inside an address", () => {
    const row = newRow();
    const first = ipv4TcpFrame(225);
    append(row, first.data, first.packet, false);
    expect(row.filled).toBe(265);
    const second = ipv4TcpFrame(0);
    append(row, second.data, second.packet, false);
    // 15 bytes of the second packet fit: bytes 12..14 (start of the source address) are zeroed, 0..11 kept.
    expect(Array.from(row.bytes.subarray(265, 277))).toEqual(Array.from(second.data.subarray(14, 26)));
    expect(Array.from(row.bytes.subarray(277))).toEqual([0, 0, 0]);
  });

  it("does not zero ports of a later fragment, which carries no transport header", () => {
    const { data, packet } = ipv4TcpFrame(10);
    packet.isFragment = true;
    packet.transportOffset = -1;
    const row = newRow();
    append(row, data, packet, false);
    expect(Array.from(row.bytes.subarray(20, 24))).toEqual(Array.from(data.subarray(34, 38)));
    expect(row.bytes.subarray(12, 20).every((b) => b === 0)).toBe(true);
  });

  it("reads the packet at an offset of the reader's buffer and writes only inside its row", () => {
    const { data, packet } = ipv4TcpFrame(300);
    const buffer = new Uint8Array(data.length + 100).fill(7);
    buffer.set(data, 60);
    const target = new Uint8Array(3 * IMAGE_ROW_BYTES).fill(9);
    const rows = new ImageRows();
    rows.start(0, target, IMAGE_ROW_BYTES);
    expect(rows.append(0, buffer, 60, data.length, packet, false)).toBe(true);
    expect(rows.filling[0]).toBe(0);
    const want = expected(data, [
      [12, 20],
      [20, 24],
    ]).subarray(0, IMAGE_ROW_BYTES);
    expect(Array.from(target.subarray(IMAGE_ROW_BYTES, 2 * IMAGE_ROW_BYTES))).toEqual(Array.from(want));
    expect(target.subarray(0, IMAGE_ROW_BYTES).every((b) => b === 9)).toBe(true);
    expect(target.subarray(2 * IMAGE_ROW_BYTES).every((b) => b === 9)).toBe(true);
    // The slot's next session gets a new place, empty.
    const next = new Uint8Array(IMAGE_ROW_BYTES);
    rows.start(0, next, 0);
    expect(rows.filled(0)).toBe(0);
    rows.append(0, data, 0, data.length, packet, true);
    expect(Array.from(next)).toEqual(Array.from(data.subarray(14, 14 + IMAGE_ROW_BYTES)));
  });

  it("clears the part never filled when a session ends, over stale bytes of a reused buffer", () => {
    const { data, packet } = ipv4TcpFrame(10);
    const target = new Uint8Array(2 * IMAGE_ROW_BYTES).fill(5);
    const rows = new ImageRows();
    // Slots past the first 1024 grow the tables, keeping the earlier slots' rows.
    rows.start(1, target, 0);
    rows.start(5000, target, IMAGE_ROW_BYTES);
    rows.append(1, data, 0, data.length, packet, true);
    rows.append(5000, data, 0, data.length, packet, true);
    expect(rows.filled(1)).toBe(50);
    expect(rows.end(1)).toBe(true);
    expect(rows.end(1)).toBe(false);
    expect(Array.from(target.subarray(0, 50))).toEqual(Array.from(data.subarray(14)));
    expect(target.subarray(50, IMAGE_ROW_BYTES).every((b) => b === 0)).toBe(true);
    // Slot 5000's row is still filling: its stale tail is left until its session ends.
    expect(rows.filled(5000)).toBe(50);
    expect(target[IMAGE_ROW_BYTES + 50]).toBe(5);
    expect(rows.end(5000)).toBe(true);
    expect(target.subarray(IMAGE_ROW_BYTES + 50).every((b) => b === 0)).toBe(true);
  });
});
