// Grayscale image rows: a session's first 280 bytes of IP packets, with addresses and ports zeroed, one byte per pixel.
import type { DecodedPacket } from "../decode/decoded-packet.js";

/** Width of every image and length of every row, in bytes (pixels). */
export const IMAGE_ROW_BYTES = 280;

const IPPROTO_TCP = 6;
const IPPROTO_UDP = 17;
const NOWHERE = new Uint8Array(0);
const SHORT_COPY = 40;

/**
 * One session's row, written straight into its place in an image (a session's row number is known when it starts),
 * so no row is copied again when the session ends. Bytes are appended packet after packet until the row is full;
 * what is never filled keeps the zeros the place held. `full` lets the caller skip the rest of a long session.
 */
export class ImageRow {
  /** The row is `target[start .. start + 280)`. */
  target: Uint8Array = NOWHERE;
  start = 0;
  filled = 0;

  /** Points the record at the next session's place: 280 zero bytes at `start` of `target`. */
  reset(target: Uint8Array, start: number): void {
    this.target = target;
    this.start = start;
    this.filled = 0;
  }

  get full(): boolean {
    return this.filled === IMAGE_ROW_BYTES;
  }

  /**
   * Appends the packet held in `buffer[offset .. offset + length)` (the bytes of a CapturedPacket, link layer first),
   * from its IP header on, up to the IP length (link-layer padding and trailers are not part of the packet) or the
   * captured end, whichever comes first. Unless `keepAddresses`, the IP addresses and the TCP/UDP ports of this
   * packet are zeroed in the copy. Taking the reader's buffer and offset spares a view per packet.
   */
  append(buffer: Uint8Array, offset: number, length: number, packet: DecodedPacket, keepAddresses: boolean): void {
    if (this.filled === IMAGE_ROW_BYTES || packet.ipOffset < 0) return;
    const ipStart = packet.ipOffset;
    const ipEnd = Math.min(length, ipStart + (packet.ipLength > 0 ? packet.ipLength : length));
    const count = Math.min(ipEnd - ipStart, IMAGE_ROW_BYTES - this.filled);
    if (count <= 0) return;
    const rowAt = this.start + this.filled;
    const target = this.target;
    const from = offset + ipStart;
    // Making a view for set() costs about as much as copying 40 bytes one by one; beyond, set() is far faster.
    if (count <= SHORT_COPY) for (let i = 0; i < count; i++) target[rowAt + i] = buffer[from + i];
    else target.set(buffer.subarray(from, from + count), rowAt);
    this.filled += count;
    if (keepAddresses) return;
    if (packet.ipVersion === 4) this.zero(rowAt, count, 12, 8);
    else if (packet.ipVersion === 6) this.zero(rowAt, count, 8, 32);
    if (packet.transportOffset >= 0 && (packet.protocol === IPPROTO_TCP || packet.protocol === IPPROTO_UDP)) {
      this.zero(rowAt, count, packet.transportOffset - ipStart, 4);
    }
  }

  /** Zeroes `length` bytes at `offset` within the packet, clipped to the part of the packet copied into the row. */
  private zero(rowAt: number, copied: number, offset: number, length: number): void {
    const to = rowAt + Math.min(offset + length, copied);
    for (let i = rowAt + Math.min(offset, copied); i < to; i++) this.target[i] = 0;
  }
}
