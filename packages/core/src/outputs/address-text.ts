// IP addresses as ASCII text written into a byte buffer (CSV rows): IPv4 in dotted decimal, IPv6 per RFC 5952.
// Each writer takes the buffer and the offset to write at, and returns the offset after the text; it may store up to
// two bytes of scratch past that offset, so the buffer needs that much room beyond the longest text.

const DOT = 46;
const COLON = 58;
const HEX = "0123456789abcdef";

/**
 * Each octet's decimal text: up to three ASCII digits, first digit in the low byte, and the digit count in the top
 * byte. One load and three stores write any octet, where a choice of 1, 2 or 3 digits per octet mispredicts on
 * mixed addresses.
 */
const OCTET_TEXT = new Int32Array(256);
for (let b = 0; b < 256; b++) {
  const text = String(b);
  let packed = text.length << 24;
  for (let i = 0; i < text.length; i++) packed |= text.charCodeAt(i) << (8 * i);
  OCTET_TEXT[b] = packed;
}

/**
 * Octet `b` (0..255) in decimal. Always stores three bytes: the ones after the digits are overwritten by what
 * follows or lie past the text's end (callers leave two bytes of room after the longest text).
 */
function writeOctet(out: Uint8Array, at: number, b: number): number {
  const text = OCTET_TEXT[b];
  out[at] = text;
  out[at + 1] = text >> 8;
  out[at + 2] = text >> 16;
  return at + (text >>> 24);
}

/** An IPv4 address given as its 32-bit word (first octet in the top byte). */
export function writeIpv4Word(out: Uint8Array, at: number, word: number): number {
  at = writeOctet(out, at, word >>> 24);
  out[at++] = DOT;
  at = writeOctet(out, at, (word >>> 16) & 255);
  out[at++] = DOT;
  at = writeOctet(out, at, (word >>> 8) & 255);
  out[at++] = DOT;
  return writeOctet(out, at, word & 255);
}

/** The IPv4 address in bytes[from, from + 4). */
export function writeDotted(out: Uint8Array, at: number, bytes: Uint8Array, from: number): number {
  at = writeOctet(out, at, bytes[from]);
  for (let i = 1; i < 4; i++) {
    out[at++] = DOT;
    at = writeOctet(out, at, bytes[from + i]);
  }
  return at;
}

/**
 * The IPv6 address in bytes[0, 16), per RFC 5952: lowercase hex, no leading zeros, the longest run (first on a tie)
 * of two or more zero groups as "::", and IPv4-mapped addresses (::ffff:0:0/96) with their IPv4 part in dotted
 * decimal (section 5).
 */
export function writeIpv6(out: Uint8Array, at: number, bytes: Uint8Array): number {
  let mapped = bytes[10] === 0xff && bytes[11] === 0xff;
  for (let i = 0; i < 10 && mapped; i++) mapped = bytes[i] === 0;
  const groups = mapped ? 6 : 8;
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < groups; ) {
    if (bytes[2 * i] !== 0 || bytes[2 * i + 1] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups && bytes[2 * j] === 0 && bytes[2 * j + 1] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  for (let i = 0; i < groups; i++) {
    if (i === bestStart) {
      out[at++] = COLON;
      out[at++] = COLON;
      i += bestLength - 1;
      continue;
    }
    if (i > 0 && i !== bestStart + bestLength) out[at++] = COLON;
    const group = (bytes[2 * i] << 8) | bytes[2 * i + 1];
    let shift = 12;
    while (shift > 0 && group >> shift === 0) shift -= 4;
    for (; shift >= 0; shift -= 4) out[at++] = HEX.charCodeAt((group >> shift) & 15);
  }
  if (mapped) {
    if (bestStart + bestLength !== groups) out[at++] = COLON;
    at = writeDotted(out, at, bytes, 12);
  }
  return at;
}
