// Grayscale image rows: a session's first 280 bytes of IP packets, with addresses and ports zeroed, one byte per pixel.
import type { DecodedPacket } from "../decode/decoded-packet.js";
import { RowBlocks } from "./row-blocks.js";

/** Width of every image and length of every row, in bytes (pixels). */
export const IMAGE_ROW_BYTES = 280;

const IPPROTO_TCP = 6;
const IPPROTO_UDP = 17;
const SHORT_COPY = 40;

/**
 * The rows of every session record, by record slot, while their sessions add bytes: packet after packet until the
 * row is full (then it is final) or its session ends. A row is kept in a block of `blocks` about its size (a row of
 * one small packet takes 64 bytes, not 280), moved to a larger one as it grows; once final, its block is handed to
 * whoever draws the image (`handleOf`, `lengthOf`), which frees it. Kept in typed arrays by slot, not an object per
 * record: a packet looks at one byte (`filling`) to skip a full row, and the garbage collector has no per-record
 * object to mark.
 */
export class ImageRows {
  /** By slot: 1 while the row takes bytes, else 0. */
  filling = new Uint8Array(1024);
  readonly blocks = new RowBlocks();
  /** By slot: the row's block (-1 before its first byte), and the bytes filled so far. */
  private handles = new Int32Array(1024);
  private lengths = new Int32Array(1024);

  /** Slot `slot` starts a new session's row, empty. */
  start(slot: number): void {
    if (slot >= this.filling.length) this.grow(slot);
    this.handles[slot] = -1;
    this.lengths[slot] = 0;
    this.filling[slot] = 1;
  }

  /** The block of slot `slot`'s final row (-1 for a row without a byte), now the caller's to free. */
  handleOf(slot: number): number {
    return this.handles[slot];
  }

  /** Bytes of slot `slot`'s row; a final row is this long and zero to IMAGE_ROW_BYTES. */
  lengthOf(slot: number): number {
    return this.lengths[slot];
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
    const filled = this.lengths[slot];
    const count = Math.min(ipEnd - ipStart, IMAGE_ROW_BYTES - filled);
    if (count <= 0) return false;
    let handle = this.handles[slot];
    if (handle < 0) handle = this.blocks.alloc(count);
    else if (filled + count > this.blocks.capacity(handle)) handle = this.blocks.grow(handle, filled, filled + count);
    this.handles[slot] = handle;
    const target = this.blocks.chunkOf(handle);
    const rowAt = this.blocks.offsetOf(handle) + filled;
    const from = offset + ipStart;
    // Making a view for set() costs about as much as copying 40 bytes one by one; beyond, set() is far faster.
    if (count <= SHORT_COPY) for (let i = 0; i < count; i++) target[rowAt + i] = buffer[from + i];
    else target.set(buffer.subarray(from, from + count), rowAt);
    this.lengths[slot] = filled + count;
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
   * Slot `slot`'s session ended. Returns true when its row was still taking bytes: it is final now (its bytes past
   * `lengthOf` count as zero). Returns false when the row was final already (full).
   */
  end(slot: number): boolean {
    if (this.filling[slot] !== 1) return false;
    this.filling[slot] = 0;
    return true;
  }

  private grow(slot: number): void {
    const size = Math.max(2 * this.filling.length, slot + 1);
    const filling = new Uint8Array(size);
    filling.set(this.filling);
    this.filling = filling;
    const handles = new Int32Array(size);
    handles.set(this.handles);
    this.handles = handles;
    const lengths = new Int32Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}

/** Zeroes `length` bytes at `offset` within the packet, clipped to the part of the packet copied into the row. */
function zero(target: Uint8Array, rowAt: number, copied: number, offset: number, length: number): void {
  const to = rowAt + Math.min(offset + length, copied);
  for (let i = rowAt + Math.min(offset, copied); i < to; i++) target[i] = 0;
}
