// Grayscale image rows: a session's first 280 bytes of IP packets, with addresses and ports zeroed, one byte per pixel.
import type { DecodedPacket } from "../decode/decoded-packet.js";

/** Width of every image and length of every row, in bytes (pixels). */
export const IMAGE_ROW_BYTES = 280;

const IPPROTO_TCP = 6;
const IPPROTO_UDP = 17;
const SHORT_COPY = 40;
/** Numbers per slot in `places`: the row's start in its target, and the bytes filled so far. */
const PLACE = 2;

/**
 * The rows of every session record, by record slot: each written straight into its place in an image (a session's
 * row number is known when it starts), so no row is copied again when the session ends. Bytes are appended packet
 * after packet until the row is full. Kept in typed arrays by slot, not an object per record: a packet looks at one
 * byte (`filling`) to skip a full row, and the garbage collector has no per-record object to mark.
 */
export class ImageRows {
  /** By slot: 1 while the row takes bytes, else 0. */
  filling = new Uint8Array(1024);
  /** By slot: the buffer holding the row (rows of one image share it). */
  private readonly targets: Uint8Array[] = [];
  private places = new Int32Array(PLACE * 1024);

  /**
   * Points slot `slot`'s row at `target[start .. start + 280)`, for a new session. The bytes there may be stale (a
   * reused buffer): what is never filled is cleared when the row becomes final (`end`).
   */
  start(slot: number, target: Uint8Array, start: number): void {
    if (slot >= this.filling.length) this.grow(slot);
    this.targets[slot] = target;
    this.places[PLACE * slot] = start;
    this.places[PLACE * slot + 1] = 0;
    this.filling[slot] = 1;
  }

  /** Bytes of slot `slot`'s row filled so far. */
  filled(slot: number): number {
    return this.places[PLACE * slot + 1];
  }

  /**
   * Appends the packet held in `buffer[offset .. offset + length)` (the bytes of a CapturedPacket, link layer first)
   * to slot `slot`'s row, from its IP header on, up to the IP length (link-layer padding and trailers are not part of
   * the packet) or the captured end, whichever comes first. Unless `keepAddresses`, the IP addresses and the TCP/UDP
   * ports of this packet are zeroed in the copy. Taking the reader's buffer and offset spares a view per packet.
   * Returns true when this packet filled the row: it is then final (`filling` is 0) and takes no more bytes.
   */
  append(
    slot: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    packet: DecodedPacket,
    keepAddresses: boolean,
  ): boolean {
    if (this.filling[slot] !== 1 || packet.ipOffset < 0) return false;
    const ipStart = packet.ipOffset;
    const ipEnd = Math.min(length, ipStart + (packet.ipLength > 0 ? packet.ipLength : length));
    const at = PLACE * slot;
    const filled = this.places[at + 1];
    const count = Math.min(ipEnd - ipStart, IMAGE_ROW_BYTES - filled);
    if (count <= 0) return false;
    const rowAt = this.places[at] + filled;
    const target = this.targets[slot];
    const from = offset + ipStart;
    // Making a view for set() costs about as much as copying 40 bytes one by one; beyond, set() is far faster.
    if (count <= SHORT_COPY) for (let i = 0; i < count; i++) target[rowAt + i] = buffer[from + i];
    else target.set(buffer.subarray(from, from + count), rowAt);
    this.places[at + 1] = filled + count;
    if (!keepAddresses) {
      if (packet.ipVersion === 4) zero(target, rowAt, count, 12, 8);
      else if (packet.ipVersion === 6) zero(target, rowAt, count, 8, 32);
      if (packet.transportOffset >= 0 && (packet.protocol === IPPROTO_TCP || packet.protocol === IPPROTO_UDP)) {
        zero(target, rowAt, count, packet.transportOffset - ipStart, 4);
      }
    }
    if (filled + count < IMAGE_ROW_BYTES) return false;
    this.filling[slot] = 0;
    return true;
  }

  /**
   * Slot `slot`'s session ended. Returns true when its row was still taking bytes: it is final now, its part never
   * filled cleared to zero. Returns false when the row was final already (full).
   */
  end(slot: number): boolean {
    if (this.filling[slot] !== 1) return false;
    this.filling[slot] = 0;
    const at = PLACE * slot;
    const start = this.places[at];
    this.targets[slot].fill(0, start + this.places[at + 1], start + IMAGE_ROW_BYTES);
    return true;
  }

  private grow(slot: number): void {
    const size = Math.max(2 * this.filling.length, slot + 1);
    const filling = new Uint8Array(size);
    filling.set(this.filling);
    this.filling = filling;
    const places = new Int32Array(PLACE * size);
    places.set(this.places);
    this.places = places;
  }
}

/** Zeroes `length` bytes at `offset` within the packet, clipped to the part of the packet copied into the row. */
function zero(target: Uint8Array, rowAt: number, copied: number, offset: number, length: number): void {
  const to = rowAt + Math.min(offset + length, copied);
  for (let i = rowAt + Math.min(offset, copied); i < to; i++) target[i] = 0;
}
