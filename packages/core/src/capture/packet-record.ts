// The reused packet object every reader fills in place: no allocation per packet.
import type { CapturedPacket } from "./packet.js";

const EMPTY = new Uint8Array(0);

/**
 * A CapturedPacket whose bytes are `buffer[offset .. offset + capturedLength)`.
 * `data` is a view made on first access for each packet, so code that reads `buffer` and `offset`
 * directly never allocates. Both stay valid until the reader's next call to next() or push().
 */
export class PacketRecord implements CapturedPacket {
  tsSec = 0;
  tsNsec = 0;
  capturedLength = 0;
  originalLength = 0;
  linkType = 0;
  interfaceIndex = 0;
  fileOffset = 0;
  index = -1;
  /** The reader's buffer holding this packet's bytes at `offset`. */
  buffer: Uint8Array = EMPTY;
  offset = 0;
  private view: Uint8Array | null = null;

  get data(): Uint8Array {
    if (this.view === null) this.view = this.buffer.subarray(this.offset, this.offset + this.capturedLength);
    return this.view;
  }

  /** Points the record at new bytes; timestamps and lengths are set by the reader directly. */
  setBytes(buffer: Uint8Array, offset: number, capturedLength: number): void {
    this.buffer = buffer;
    this.offset = offset;
    this.capturedLength = capturedLength;
    this.view = null;
  }
}
