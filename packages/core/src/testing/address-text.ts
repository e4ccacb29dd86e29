// Test-only: an address from a DecodedPacket as text (dotted IPv4, RFC 5952 IPv6), to compare with other tools' output.

/** `bytes` holds 4 (version 4) or 16 (version 6) address bytes at its start. */
export function addressText(bytes: Uint8Array, version: 4 | 6): string {
  if (version === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((bytes[i] << 8) | bytes[i + 1]);
  // RFC 5952: the longest run (the first of equals) of two or more zero words becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j > i ? j : i + 1;
  }
  const hex = (from: number, to: number) =>
    words
      .slice(from, to)
      .map((w) => w.toString(16))
      .join(":");
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}
