// The Internet checksum (RFC 1071) and its incremental update (RFC 1624), over 16-bit big-endian words.

/** Adds `data[start..end)` as big-endian 16-bit words to a running 32-bit sum (an odd last byte is padded with zero). */
export function sumWords(data: Uint8Array, start: number, end: number, sum = 0): number {
  let i = start;
  for (; i + 1 < end; i += 2) sum += (data[i] << 8) | data[i + 1];
  if (i < end) sum += data[i] << 8;
  // Plain numbers stay exact up to 2^53, far beyond any packet's sum, so folding can wait until the end.
  return sum;
}

/** Folds a running sum into 16 bits with end-around carry. */
export function foldSum(sum: number): number {
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return sum;
}

/** The checksum field for a running sum: the one's complement of the folded sum. */
export function checksumOf(sum: number): number {
  return ~foldSum(sum) & 0xffff;
}

/**
 * Accumulates the difference made by overwriting `data[offset..)` with `newBytes` (an even length), for
 * `adjustChecksum`: RFC 1624 eqn. 3 adds ~old + new for each 16-bit word. Call it before overwriting.
 */
export function addReplacement(delta: number, data: Uint8Array, offset: number, newBytes: Uint8Array): number {
  for (let i = 0; i < newBytes.length; i += 2) {
    const old = (data[offset + i] << 8) | data[offset + i + 1];
    delta += (~old & 0xffff) + ((newBytes[i] << 8) | newBytes[i + 1]);
  }
  return delta;
}

/** A checksum field after replacing words whose differences `addReplacement` accumulated (RFC 1624 eqn. 3). */
export function adjustChecksum(checksum: number, delta: number): number {
  return ~foldSum((~checksum & 0xffff) + foldSum(delta)) & 0xffff;
}
