// The reader's view of its input: reads pushed chunks in place and keeps a carry buffer for records that span chunks.

const EMPTY = new Uint8Array(0);

/**
 * Readers parse `buf[pos .. end)` through `view`. When a record needs more bytes than are there, need(n) moves
 * the leftover into a carry buffer and tops it up from the next chunk, only as far as that record needs;
 * once parsing passes the leftover, reading switches back to the chunk itself (no copy of the bulk).
 */
export class InputWindow {
  buf: Uint8Array = EMPTY;
  view: DataView = new DataView(EMPTY.buffer);
  pos = 0;
  end = 0;
  /** Offset in the whole input of buf[0]. */
  base = 0;
  /** No more chunks will come. */
  ended = false;
  /** True while reading from the carry buffer. */
  inCarry = false;
  private carry: Uint8Array = new Uint8Array(4096);
  /** Chunk whose head is being copied into the carry buffer, and how much of it was copied. */
  private chunk: Uint8Array | null = null;
  private copied = 0;
  /** Carry index where chunk[0] sits. */
  private boundary = 0;

  /** Absolute input offset of buf[pos]. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** Bytes available without more input: what is in the buffer plus what the pending chunk still holds. */
  get available(): number {
    return this.end - this.pos + (this.chunk === null ? 0 : this.chunk.length - this.copied);
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (!this.inCarry && this.pos < this.end) this.toCarry();
    if (this.inCarry) {
      if (this.chunk !== null) this.absorbAll();
      if (this.pos === this.end) {
        this.base += this.end;
        this.setBuffer(chunk, 0, chunk.length, false);
        return;
      }
      this.chunk = chunk;
      this.copied = 0;
      this.boundary = this.end;
      return;
    }
    this.base += this.end;
    this.setBuffer(chunk, 0, chunk.length, false);
  }

  /**
   * Makes at least n bytes available at pos, copying into the carry buffer as needed.
   * Returns false when the input so far holds fewer (the leftover is kept; push more).
   */
  need(n: number): boolean {
    if (this.end - this.pos >= n) return true;
    if (!this.inCarry) this.toCarry();
    if (this.chunk !== null) {
      const chunk = this.chunk;
      const take = Math.min(n - (this.end - this.pos), chunk.length - this.copied);
      this.reserve(take);
      this.carry.set(chunk.subarray(this.copied, this.copied + take), this.end);
      this.copied += take;
      this.end += take;
      if (this.copied === chunk.length) {
        this.chunk = null;
        this.boundary = this.end;
      }
    }
    return this.end - this.pos >= n;
  }

  /** Moves pos forward past a consumed record, switching back to the pending chunk once the leftover is read. */
  consume(length: number): void {
    this.pos += length;
    if (this.inCarry && this.chunk !== null && this.pos >= this.boundary) {
      const chunk = this.chunk;
      const at = this.pos - this.boundary;
      this.base += this.boundary;
      this.chunk = null;
      this.setBuffer(chunk, at, chunk.length, false);
    }
  }

  private toCarry(): void {
    const rest = this.end - this.pos;
    if (this.carry.length < rest) this.carry = new Uint8Array(grow(this.carry.length, rest));
    this.carry.set(this.buf.subarray(this.pos, this.end), 0);
    this.base += this.pos;
    this.setBuffer(this.carry, 0, rest, true);
    this.boundary = rest;
  }

  private absorbAll(): void {
    const chunk = this.chunk!;
    const rest = chunk.length - this.copied;
    this.reserve(rest);
    this.carry.set(chunk.subarray(this.copied), this.end);
    this.end += rest;
    this.chunk = null;
    this.boundary = this.end;
  }

  /** Room for `extra` more bytes at end: drops consumed bytes first, grows if still short. */
  private reserve(extra: number): void {
    if (this.pos > 0) {
      this.carry.copyWithin(0, this.pos, this.end);
      this.base += this.pos;
      this.end -= this.pos;
      this.boundary -= this.pos;
      this.pos = 0;
    }
    if (this.end + extra > this.carry.length) {
      const bigger = new Uint8Array(grow(this.carry.length, this.end + extra));
      bigger.set(this.carry.subarray(0, this.end), 0);
      this.carry = bigger;
    }
    this.setBuffer(this.carry, this.pos, this.end, true);
  }

  private setBuffer(buf: Uint8Array, pos: number, end: number, inCarry: boolean): void {
    if (buf !== this.buf) {
      this.buf = buf;
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    this.pos = pos;
    this.end = end;
    this.inCarry = inCarry;
  }
}

function grow(current: number, needed: number): number {
  let size = Math.max(current, 4096);
  while (size < needed) size *= 2;
  return size;
}
