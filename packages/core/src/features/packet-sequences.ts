// The nfstream set's early-packet sequences (SPLT): each session's first N packets' size, direction and gap, kept
// outside the feature state because N is the run's choice (--splt).
import { CHUNK_MASK, CHUNK_SHIFT } from "../flow/session.js";

/** Packets in a sequence when the run does not say (NFStream's own default is none; its examples use 10 to 32). */
export const DEFAULT_SPLT = 32;
/** The most a run may ask for: NFStream's recommended limit; beyond it rows and memory grow with little use. */
export const MAX_SPLT = 255;

/** Blocks per chunk of the block pool (2^BLOCK_SHIFT). */
const BLOCK_SHIFT = 10;
const BLOCK_MASK = (1 << BLOCK_SHIFT) - 1;

/**
 * Entries 1 … N − 1 of every live session's sequence, by the session record's store slot (entry 0, the first
 * packet, stays in the group's state, so that a one-packet session, three in four, takes nothing here). An entry is
 * two int32 words: the size word (the size for a forward packet, −size − 1 for a backward one, so that the sign
 * carries the direction) and the gap in milliseconds (at most the idle timeout, 10^9 ms). A session takes one
 * block of N − 1 entries at its second packet; the block goes back to a free list when the next session of the same
 * slot starts its sequence (`restart`), so no call is needed at a session's end, and a slot holds at most one block.
 * Blocks and the per-slot table are in chunks that never move.
 */
export class PacketSequences {
  /** N: packets kept per session. */
  readonly length: number;
  private readonly blockWords: number;
  /** Each record slot's block + 1 (0: none), in chunks of the flow store's chunk size. */
  private readonly blockOf: Int32Array[] = [];
  private readonly chunks: Int32Array[] = [];
  private used = 0;
  private readonly free: number[] = [];

  constructor(length: number) {
    this.length = length;
    this.blockWords = 2 * Math.max(0, length - 1);
  }

  /** The session in `slot` starts its sequence: a block an earlier session of the slot held goes back. */
  restart(slot: number): void {
    const chunk = slot >>> CHUNK_SHIFT;
    while (this.blockOf.length <= chunk) this.blockOf.push(new Int32Array(1 << CHUNK_SHIFT));
    const table = this.blockOf[chunk];
    const held = table[slot & CHUNK_MASK];
    if (held !== 0) {
      this.free.push(held - 1);
      table[slot & CHUNK_MASK] = 0;
    }
  }

  /** Sets entry `index` (1 ≤ index < length) of the session in `slot`, which restarted its sequence. */
  put(slot: number, index: number, sizeWord: number, gapMs: number): void {
    const table = this.blockOf[slot >>> CHUNK_SHIFT];
    let block = table[slot & CHUNK_MASK] - 1;
    if (block < 0) {
      block = this.take();
      table[slot & CHUNK_MASK] = block + 1;
    }
    const words = this.chunks[block >>> BLOCK_SHIFT];
    const at = (block & BLOCK_MASK) * this.blockWords + 2 * (index - 1);
    words[at] = sizeWord;
    words[at + 1] = gapMs;
  }

  /** Entry `index`'s size word (1 ≤ index < the entries put). */
  sizeWord(slot: number, index: number): number {
    return this.word(slot, index, 0);
  }

  /** Entry `index`'s gap in milliseconds (1 ≤ index < the entries put). */
  gapMs(slot: number, index: number): number {
    return this.word(slot, index, 1);
  }

  private word(slot: number, index: number, which: number): number {
    const block = this.blockOf[slot >>> CHUNK_SHIFT][slot & CHUNK_MASK] - 1;
    return this.chunks[block >>> BLOCK_SHIFT][(block & BLOCK_MASK) * this.blockWords + 2 * (index - 1) + which];
  }

  /** A free block, or a new one (a new chunk when the last is full). */
  private take(): number {
    if (this.free.length > 0) return this.free.pop() as number;
    if ((this.used & BLOCK_MASK) === 0) this.chunks.push(new Int32Array(this.blockWords << BLOCK_SHIFT));
    return this.used++;
  }
}
