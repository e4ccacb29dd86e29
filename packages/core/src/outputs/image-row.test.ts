// Image rows: bytes from the IP header on, packet after packet, addresses and ports zeroed, clipped at 280.
import { describe, expect, it } from "vitest";
import { createDecodedPacket, type DecodedPacket, DecodeKind } from "../decode/decoded-packet.js";
import { IMAGE_ROW_BYTES, ImageRows } from "./image-row.js";
import { RowBlocks } from "./row-blocks.js";

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

/** The 280 bytes slot `slot`'s row stands for: its block's first `lengthOf` bytes, then zeros. */
function rowBytes(rows: ImageRows, slot: number): Uint8Array {
  const bytes = new Uint8Array(IMAGE_ROW_BYTES);
  const handle = rows.handleOf(slot);
  if (handle < 0) return bytes;
  const at = rows.blocks.offsetOf(handle);
  bytes.set(rows.blocks.chunkOf(handle).subarray(at, at + rows.lengthOf(slot)));
  return bytes;
}

/** Slot 3's row. */
interface Row {
  rows: ImageRows;
  bytes: Uint8Array;
  filled: number;
  full: boolean;
}

function newRow(): Row {
  const rows = new ImageRows();
  rows.start(3);
  return {
    rows,
    get bytes() {
      return rowBytes(rows, 3);
    },
    get filled() {
      return rows.lengthOf(3);
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

  it("reads the packet at an offset of the reader's buffer, into a block about the row's size, larger as it grows", () => {
    const small = ipv4TcpFrame(4);
    const buffer = new Uint8Array(small.data.length + 100).fill(7);
    buffer.set(small.data, 60);
    const rows = new ImageRows();
    rows.start(0);
    expect(rows.handleOf(0)).toBe(-1);
    expect(rows.append(0, buffer, 60, small.data.length, small.packet, true)).toBe(false);
    expect(rows.blocks.capacity(rows.handleOf(0))).toBe(48);
    expect(Array.from(rowBytes(rows, 0).subarray(0, 44))).toEqual(Array.from(small.data.subarray(14)));
    // 44 + 40 bytes: a 128-byte block, the first packet's bytes moved along; then a full row in a 280-byte block.
    const second = ipv4TcpFrame(0);
    rows.append(0, second.data, 0, second.data.length, second.packet, true);
    expect(rows.blocks.capacity(rows.handleOf(0))).toBe(128);
    const big = ipv4TcpFrame(300);
    expect(rows.append(0, big.data, 0, big.data.length, big.packet, true)).toBe(true);
    expect(rows.blocks.capacity(rows.handleOf(0))).toBe(IMAGE_ROW_BYTES);
    const want = [...small.data.subarray(14), ...second.data.subarray(14), ...big.data.subarray(14)].slice(0, 280);
    expect(Array.from(rowBytes(rows, 0))).toEqual(want);
    // The slot's next session starts empty (the full row's block is the drawer's to free).
    rows.start(0);
    expect([rows.handleOf(0), rows.lengthOf(0), rows.filling[0]]).toEqual([-1, 0, 1]);
  });

  it("keeps earlier slots' rows when slots past the first 1024 grow its tables, and ends a row once", () => {
    const { data, packet } = ipv4TcpFrame(10);
    const rows = new ImageRows();
    rows.start(1);
    rows.append(1, data, 0, data.length, packet, true);
    rows.start(5000);
    rows.append(5000, data, 0, data.length, packet, true);
    expect([rows.lengthOf(1), rows.lengthOf(5000)]).toEqual([50, 50]);
    expect(Array.from(rowBytes(rows, 1).subarray(0, 50))).toEqual(Array.from(data.subarray(14)));
    expect(rows.handleOf(1)).not.toBe(rows.handleOf(5000));
    expect(rows.end(1)).toBe(true);
    expect(rows.end(1)).toBe(false);
  });

  it("gives a row no block while no packet has IP bytes", () => {
    const rows = new ImageRows();
    rows.start(2);
    const { data, packet } = ipv4TcpFrame(10);
    packet.ipOffset = -1;
    expect(rows.append(2, data, 0, data.length, packet, false)).toBe(false);
    expect(rows.end(2)).toBe(true);
    expect([rows.handleOf(2), rows.lengthOf(2)]).toEqual([-1, 0]);
  });
});

describe("RowBlocks", () => {
  it("hands out the smallest block that holds the bytes, and reuses freed blocks of a size", () => {
    const blocks = new RowBlocks();
    const sizes = [1, 48, 49, 128, 129, 280].map((bytes) => blocks.capacity(blocks.alloc(bytes)));
    expect(sizes).toEqual([48, 48, 128, 128, 280, 280]);
    const a = blocks.alloc(10);
    blocks.free(a);
    expect(blocks.alloc(20)).toBe(a);
    expect(blocks.alloc(100)).not.toBe(a);
  });

  it("moves a block's bytes when it grows, and blocks never overlap", () => {
    const blocks = new RowBlocks();
    const handles = Array.from({ length: 5000 }, (_, i) => {
      const h = blocks.alloc(48);
      blocks.chunkOf(h).fill(i % 250, blocks.offsetOf(h), blocks.offsetOf(h) + 48);
      return h;
    });
    const grown = blocks.grow(handles[4321], 48, 200);
    const at = blocks.offsetOf(grown);
    expect(Array.from(blocks.chunkOf(grown).subarray(at, at + 48))).toEqual(new Array(48).fill(4321 % 250));
    for (const [i, h] of handles.entries()) {
      if (i === 4321) continue;
      const from = blocks.offsetOf(h);
      expect(
        blocks
          .chunkOf(h)
          .subarray(from, from + 48)
          .every((b) => b === i % 250),
      ).toBe(true);
    }
    // The grown block's old place is free again.
    expect(blocks.alloc(48)).toBe(handles[4321]);
  });
});
