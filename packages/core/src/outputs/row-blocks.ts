// Blocks of bytes for image rows waiting to be drawn, in three sizes, so that a row takes about what it holds: most
// sessions have one packet (often a TCP SYN or RST with its options, which fits in 48 bytes), and a full 280-byte
// place for each of them was most of the memory.

/** Block sizes: a row starts in the smallest that holds its bytes and moves up as it grows. */
const SIZES = [48, 128, 280] as const;
/** Blocks per chunk (2^CHUNK_SHIFT): chunks never move, and blocks are reused through a free list per size. */
const CHUNK_SHIFT = 12;
const CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;
/** A handle is size index << SIZE_SHIFT | block index. */
const SIZE_SHIFT = 28;
const INDEX_MASK = (1 << SIZE_SHIFT) - 1;

/** The largest row a block holds. */
export const MAX_BLOCK_BYTES = SIZES[SIZES.length - 1];

interface Pool {
  size: number;
  chunks: Uint8Array[];
  /** Blocks handed out so far (the next new block's index). */
  used: number;
  free: number[];
}

/**
 * Row bytes by handle. A handle names one block until it is freed; `chunkOf` and `offsetOf` say where its bytes are
 * (no view is made per row).
 */
export class RowBlocks {
  private readonly pools: Pool[] = SIZES.map((size) => ({ size, chunks: [], used: 0, free: [] }));

  /** A block of at least `bytes` bytes (at most MAX_BLOCK_BYTES); its contents are whatever it last held. */
  alloc(bytes: number): number {
    let size = 0;
    while (SIZES[size] < bytes) size++;
    const pool = this.pools[size];
    let index = pool.free.pop();
    if (index === undefined) {
      index = pool.used++;
      if ((index & CHUNK_MASK) === 0) pool.chunks.push(new Uint8Array(pool.size << CHUNK_SHIFT));
    }
    return (size << SIZE_SHIFT) | index;
  }

  /** Bytes the block of `handle` holds. */
  capacity(handle: number): number {
    return SIZES[handle >>> SIZE_SHIFT];
  }

  chunkOf(handle: number): Uint8Array {
    return this.pools[handle >>> SIZE_SHIFT].chunks[(handle & INDEX_MASK) >>> CHUNK_SHIFT];
  }

  offsetOf(handle: number): number {
    return (handle & CHUNK_MASK) * SIZES[handle >>> SIZE_SHIFT];
  }

  /** Moves the first `used` bytes of `handle`'s block to a block of at least `bytes`, frees the old one. */
  grow(handle: number, used: number, bytes: number): number {
    const moved = this.alloc(bytes);
    const from = this.offsetOf(handle);
    this.chunkOf(moved).set(this.chunkOf(handle).subarray(from, from + used), this.offsetOf(moved));
    this.free(handle);
    return moved;
  }

  free(handle: number): void {
    this.pools[handle >>> SIZE_SHIFT].free.push(handle & INDEX_MASK);
  }

  /** Bytes held by all blocks, in use or free (for tests and measurements). */
  get allocatedBytes(): number {
    return this.pools.reduce((sum, pool) => sum + pool.chunks.length * (pool.size << CHUNK_SHIFT), 0);
  }
}
