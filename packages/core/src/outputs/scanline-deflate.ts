// A zlib stream (RFC 1950/1951) for the scanlines of the grayscale session images, made for their shape: rows of
// packet bytes that end in long runs of zeros, headers that repeat from row to row. One block with the fixed Huffman
// codes; runs of zeros as matches at distance 1, bytes equal to the row above as matches at the row's stride, the
// rest as literals; the Adler-32 taken in the same pass. Written here rather than through zlib: Node's zlib spends
// more setting up each call than encoding a small image, and a run makes tens of thousands of images (see
// docs/formats.md, "Grayscale images").

/** Distances up to this fit the 32 KiB window the stream header declares. */
const WINDOW = 32768;
const ADLER_MOD = 65521;
const NO_WORDS = new Uint32Array(0);
const MIN_MATCH = 3;
const MAX_MATCH = 258;
/**
 * Zeros from which a match against the row above stops for the zero path (16: images a little larger than with no
 * limit, in much less time).
 */
const LONG_ZEROS = 16;
/** Code 256 (end of block) is 7 zero bits in the fixed code. */
const END_OF_BLOCK_BITS = 7;
/** Distance 1 is code 0 with no extra bits: 5 zero bits. */
const DISTANCE_ONE_BITS = 5;

// RFC 1951 §3.2.5: the first length of each length code 257..285 and its extra bits; the same for distance codes.
const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

/** A Huffman code's bits in the order the stream takes them (RFC 1951 §3.1.1: codes start at their high bit). */
function reversed(code: number, length: number): number {
  let out = 0;
  for (let i = 0; i < length; i++) {
    out = (out << 1) | (code & 1);
    code >>= 1;
  }
  return out;
}

// The fixed literal/length code (RFC 1951 §3.2.6), ready to be or-ed into the bit buffer.
const LITERAL_BITS = new Uint16Array(288);
const LITERAL_LENGTH = new Uint8Array(288);
for (let symbol = 0; symbol < 288; symbol++) {
  const [code, length] =
    symbol < 144
      ? [0x30 + symbol, 8]
      : symbol < 256
        ? [0x190 + symbol - 144, 9]
        : symbol < 280
          ? [symbol - 256, 7]
          : [0xc0 + symbol - 280, 8];
  LITERAL_BITS[symbol] = reversed(code, length);
  LITERAL_LENGTH[symbol] = length;
}

// Every match length 3..258 as its length code and extra bits together.
const MATCH_BITS = new Uint32Array(MAX_MATCH + 1);
const MATCH_LENGTH = new Uint8Array(MAX_MATCH + 1);
for (let length = MIN_MATCH; length <= MAX_MATCH; length++) {
  let i = LENGTH_BASE.length - 1;
  while (LENGTH_BASE[i] > length) i--;
  const symbol = 257 + i;
  MATCH_BITS[length] = LITERAL_BITS[symbol] | ((length - LENGTH_BASE[i]) << LITERAL_LENGTH[symbol]);
  MATCH_LENGTH[length] = LITERAL_LENGTH[symbol] + LENGTH_EXTRA[i];
}

/** A distance's code (5 bits, fixed) and extra bits together, and their number of bits. */
function distanceCode(distance: number): [bits: number, length: number] {
  let i = DISTANCE_BASE.length - 1;
  while (DISTANCE_BASE[i] > distance) i--;
  return [reversed(i, 5) | ((distance - DISTANCE_BASE[i]) << 5), 5 + DISTANCE_EXTRA[i]];
}

/**
 * Deflates scanlines of `stride` bytes each (a PNG's filter byte and its row) into a complete zlib stream. The
 * result is a view of a buffer reused by the next call. Any bytes are valid input; the output decodes to exactly
 * them with any inflater.
 */
export class ScanlineDeflater {
  private out = new Uint8Array(0);
  private readonly rowBits: number;
  private readonly rowLength: number;

  constructor(private readonly stride: number) {
    if (!Number.isInteger(stride) || stride < 1) throw new RangeError(`stride must be a positive integer: ${stride}`);
    // A stride beyond the window only loses the row matches.
    [this.rowBits, this.rowLength] = stride <= WINDOW ? distanceCode(stride) : [0, 0];
  }

  deflate(src: Uint8Array): Uint8Array {
    const n = src.length;
    // Worst case: every byte a 9-bit literal, plus header, block header, end of block, padding and Adler-32.
    const bound = Math.ceil((n * 9) / 8) + 16;
    if (this.out.length < bound) this.out = new Uint8Array(bound);
    const out = this.out;
    const stride = this.stride <= WINDOW ? this.stride : n + MAX_MATCH;
    const rowBits = this.rowBits;
    const rowLength = this.rowLength;
    // The input as 32-bit words from its first 4-byte boundary on, for skipping runs of zeros a word at a time.
    const skew = (4 - (src.byteOffset & 3)) & 3;
    const words = n - skew >= 4 ? new Uint32Array(src.buffer, src.byteOffset + skew, (n - skew) >>> 2) : NO_WORDS;
    out[0] = 0x78; // deflate, 32 KiB window
    out[1] = 0x01; // fastest; (0x78 * 256 + 0x01) % 31 === 0
    let o = 2;
    // Bit buffer, filled from its low end (never more than 25 bits between flushes): BFINAL = 1, BTYPE = 01 (fixed).
    let bits = 0b011;
    let count = 3;
    let s1 = 1;
    let s2 = 0;
    let p = 0;
    while (p < n) {
      const v = src[p];
      if (v === 0) {
        const end = zeroRunEnd(src, words, skew, p + 1);
        let run = end - p;
        s1 %= ADLER_MOD;
        s2 = (s2 + run * s1) % ADLER_MOD;
        // A run copies the byte before it, so it needs a zero there: the run's first zero is a literal if not.
        if (p === 0 || src[p - 1] !== 0) {
          bits |= LITERAL_BITS[0] << count;
          count += LITERAL_LENGTH[0];
          run--;
          while (count >= 8) {
            out[o++] = bits;
            bits >>>= 8;
            count -= 8;
          }
        }
        while (run >= MIN_MATCH) {
          // Never leave 1 or 2 zeros for a last match.
          const length = run <= MAX_MATCH ? run : run - MAX_MATCH < MIN_MATCH ? run - MIN_MATCH : MAX_MATCH;
          bits |= MATCH_BITS[length] << count;
          count += MATCH_LENGTH[length] + DISTANCE_ONE_BITS;
          run -= length;
          while (count >= 8) {
            out[o++] = bits;
            bits >>>= 8;
            count -= 8;
          }
        }
        for (; run > 0; run--) {
          bits |= LITERAL_BITS[0] << count;
          count += LITERAL_LENGTH[0];
          while (count >= 8) {
            out[o++] = bits;
            bits >>>= 8;
            count -= 8;
          }
        }
        p = end;
        continue;
      }
      if (
        p >= stride &&
        p + 2 < n &&
        src[p - stride] === v &&
        src[p + 1 - stride] === src[p + 1] &&
        src[p + 2 - stride] === src[p + 2]
      ) {
        const limit = Math.min(n, p + MAX_MATCH);
        let end = p + MIN_MATCH;
        while (end < limit && src[end] === src[end - stride]) {
          // A long run of zeros is left to the zero path: coded as well, and far faster than matched byte by byte.
          if (src[end] === 0 && zeroRunEnd(src, words, skew, end) - end >= LONG_ZEROS) break;
          end++;
        }
        const length = end - p;
        bits |= MATCH_BITS[length] << count;
        count += MATCH_LENGTH[length];
        while (count >= 8) {
          out[o++] = bits;
          bits >>>= 8;
          count -= 8;
        }
        bits |= rowBits << count;
        count += rowLength;
        while (count >= 8) {
          out[o++] = bits;
          bits >>>= 8;
          count -= 8;
        }
        for (; p < end; p++) {
          s1 += src[p];
          s2 += s1;
        }
        s1 %= ADLER_MOD;
        s2 %= ADLER_MOD;
        continue;
      }
      bits |= LITERAL_BITS[v] << count;
      count += LITERAL_LENGTH[v];
      out[o++] = bits;
      bits >>>= 8;
      count -= 8;
      if (count >= 8) {
        out[o++] = bits;
        bits >>>= 8;
        count -= 8;
      }
      s1 += v;
      s2 += s1;
      // Reduced once s2 passes 2^30: s1 grows by at most 255 a byte, so both stay far below 2^53 in between.
      if (s2 > 0x3fffffff) {
        s1 %= ADLER_MOD;
        s2 %= ADLER_MOD;
      }
      p++;
    }
    count += END_OF_BLOCK_BITS;
    while (count > 0) {
      out[o++] = bits;
      bits >>>= 8;
      count -= 8;
    }
    s1 %= ADLER_MOD;
    s2 %= ADLER_MOD;
    out[o++] = s2 >>> 8;
    out[o++] = s2;
    out[o++] = s1 >>> 8;
    out[o++] = s1;
    return out.subarray(0, o);
  }
}

/**
 * Where the run of zeros going on at `from` ends: byte by byte up to a word boundary, then a word at a time (most of
 * an image is zeros: a quarter of the byte loop's time), then byte by byte again. `words` views the input from byte
 * `skew` (its first 4-byte boundary) on.
 */
function zeroRunEnd(src: Uint8Array, words: Uint32Array, skew: number, from: number): number {
  const n = src.length;
  let end = from;
  while (end < n && src[end] === 0 && ((end - skew) & 3) !== 0) end++;
  if (end < n && src[end] === 0 && end >= skew) {
    let w = (end - skew) >>> 2;
    while (w < words.length && words[w] === 0) w++;
    end = skew + w * 4;
  }
  while (end < n && src[end] === 0) end++;
  return end;
}
