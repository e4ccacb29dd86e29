// IPv4/IPv6 addresses as text and bytes, without Node's net module (the core stays pure): alerts from EVE (text) and
// unified2 (bytes) compare equal through it, and address maps read their addresses with it.
import { TracemillError } from "../errors.js";

/** Formats 4 bytes as dotted quad, 16 bytes as RFC 5952 text (lower case, longest zero run compressed). */
export function formatIpAddress(bytes: Uint8Array): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  if (bytes.length !== 16) throw new RangeError(`an IP address has 4 or 16 bytes, not ${bytes.length}`);
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/**
 * Parses dotted-quad IPv4 or IPv6 text (full, compressed or with an embedded IPv4 tail) into 4 or 16 bytes;
 * undefined when invalid.
 */
export function parseIpAddress(text: string): Uint8Array | undefined {
  if (text.includes(":")) return parseIpv6(text);
  return parseIpv4(text);
}

/** As parseIpAddress, for addresses a user gave: an invalid one is a BAD_OPTION error. */
export function requireIpAddress(text: string): Uint8Array {
  const bytes = parseIpAddress(text);
  if (!bytes) throw new TracemillError("BAD_OPTION", `not an IPv4 or IPv6 address: "${text}"`, { address: text });
  return bytes;
}

/** Dotted quad, read by hand: alerts come by the hundred thousand. */
function parseIpv4(text: string): Uint8Array | undefined {
  const bytes = new Uint8Array(4);
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46;
    if (c === 46) {
      if (digits === 0 || value > 255 || part > 3) return undefined;
      bytes[part++] = value;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      // Leading zeros are refused: some tools read them as octal, so "010" would be ambiguous.
      if (digits === 1 && value === 0) return undefined;
      value = value * 10 + c - 48;
      digits++;
    } else return undefined;
  }
  return part === 4 ? bytes : undefined;
}

function parseIpv6(text: string): Uint8Array | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const compressed = halves.length === 2;
  const head = groupsOf(halves[0], !compressed);
  const tail = compressed ? groupsOf(halves[1], true) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

/** The 16-bit groups of one side of `::`; an IPv4 tail (two groups) only where the address ends. */
function groupsOf(text: string, endsAddress: boolean): number[] | undefined {
  if (text === "") return [];
  const parts = text.split(":");
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (endsAddress && i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIpv4(part);
      if (!v4) return undefined;
      groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) {
      groups.push(Number.parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}
