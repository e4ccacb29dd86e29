// Grayscale image rows: a session's first 280 bytes of IP packets, with addresses and ports zeroed, one byte per pixel.
import type { DecodedPacket } from "../decode/decoded-packet.js";

/** Width of every image and length of every row, in bytes (pixels). */
export const IMAGE_ROW_BYTES = 280;

const IPPROTO_TCP = 6;
const IPPROTO_UDP = 17;

/**
 * Rows are carved out of shared blocks: a session record is made for each of the tens of thousands of sessions open
 * at once, and a 280-byte typed array of its own each costs a separate backing store for the allocator and the GC.
 */
const ROWS_PER_BLOCK = 256;
let block = new Uint8Array(0);
let blockUsed = 0;

function rowBytes(): Uint8Array {
  if (blockUsed === block.length) {
    block = new Uint8Array(ROWS_PER_BLOCK * IMAGE_ROW_BYTES);
    blockUsed = 0;
  }
  const bytes = block.subarray(blockUsed, blockUsed + IMAGE_ROW_BYTES);
  blockUsed += IMAGE_ROW_BYTES;
  return bytes;
}

/**
 * One session's row. Bytes are appended packet after packet until the row is full; what is never filled stays 0.
 * `full` lets the caller skip the copy for the rest of a long session.
 */
export class ImageRow {
  readonly bytes = rowBytes();
  filled = 0;

  /** Empties the row for the next session (records are reused from session to session). */
  reset(): void {
    if (this.filled > 0) this.bytes.fill(0);
    this.filled = 0;
  }

  get full(): boolean {
    return this.filled === IMAGE_ROW_BYTES;
  }

  /**
   * Appends the packet's bytes from its IP header on, up to the IP length (link-layer padding and trailers are not
   * part of the packet) or the captured end, whichever comes first. Unless `keepAddresses`, the IP addresses and the
   * TCP/UDP ports of this packet are zeroed in the copy.
   */
  append(data: Uint8Array, packet: DecodedPacket, keepAddresses: boolean): void {
    if (this.full || packet.ipOffset < 0) return;
    const ipStart = packet.ipOffset;
    const ipEnd = Math.min(data.length, ipStart + (packet.ipLength > 0 ? packet.ipLength : data.length));
    const count = Math.min(ipEnd - ipStart, IMAGE_ROW_BYTES - this.filled);
    if (count <= 0) return;
    const rowStart = this.filled;
    this.bytes.set(data.subarray(ipStart, ipStart + count), rowStart);
    this.filled += count;
    if (keepAddresses) return;
    if (packet.ipVersion === 4) this.zero(rowStart, count, 12, 8);
    else if (packet.ipVersion === 6) this.zero(rowStart, count, 8, 32);
    if (packet.transportOffset >= 0 && (packet.protocol === IPPROTO_TCP || packet.protocol === IPPROTO_UDP)) {
      this.zero(rowStart, count, packet.transportOffset - ipStart, 4);
    }
  }

  /** Zeroes `length` bytes at `offset` within the packet, clipped to the part of the packet copied into the row. */
  private zero(rowStart: number, copied: number, offset: number, length: number): void {
    const from = Math.min(offset, copied);
    const to = Math.min(offset + length, copied);
    if (to > from) this.bytes.fill(0, rowStart + from, rowStart + to);
  }
}
