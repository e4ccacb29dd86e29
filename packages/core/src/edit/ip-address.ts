// Textual IPv4/IPv6 addresses to bytes and back, without Node's net module (the core stays pure).
import { TracemillError } from "../errors.js";

/** Parses an IPv4 dotted quad or an IPv6 address (with `::` and an embedded IPv4 tail) into 4 or 16 bytes. */
export function parseIpAddress(text: string): Uint8Array {
  const bytes = text.includes(":") ? parseIpv6(text) : parseIpv4(text);
  if (!bytes) throw new TracemillError("BAD_OPTION", `not an IPv4 or IPv6 address: "${text}"`, { address: text });
  return bytes;
}

/** Formats 4 bytes as a dotted quad and 16 bytes as RFC 5952 IPv6 text (lower case, longest zero run as `::`). */
export function formatIpAddress(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join(".");
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end++;
    if (end - i > bestLength) {
      bestStart = i;
      bestLength = end - i;
    }
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

function parseIpv4(text: string): Uint8Array | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    // Leading zeros are refused: some tools read them as octal, so "010" would be ambiguous.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(parts[i])) return undefined;
    const value = Number(parts[i]);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

function parseIpv6(text: string): Uint8Array | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const compressed = halves.length === 2;
  const head = parseGroups(halves[0], !compressed);
  const tail = compressed ? parseGroups(halves[1], true) : [];
  if (!head || !tail) return undefined;
  if (compressed ? head.length + tail.length > 7 : head.length !== 8) return undefined;
  const groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, g) => {
    bytes[g * 2] = group >> 8;
    bytes[g * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** The 16-bit groups of one side of `::` (an embedded IPv4 tail counts as two groups). */
function parseGroups(text: string, v4TailAllowed: boolean): number[] | undefined {
  if (text === "") return [];
  const parts = text.split(":");
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (v4TailAllowed && i === parts.length - 1 && part.includes(".")) {
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
