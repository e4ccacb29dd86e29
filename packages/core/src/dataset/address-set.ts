// The addresses and CIDR prefixes a schedule window names (its attackers, its victims), compiled to numbers once, so
// that a session's endpoints are compared as 32-bit words, never as text.
import { TracemillError } from "../errors.js";
import { formatIpAddress, parseIpAddress } from "../net/ip-address.js";

export class AddressSet {
  /** IPv4: each entry's first and last address, as unsigned numbers. */
  private readonly v4Low: Float64Array;
  private readonly v4High: Float64Array;
  /** IPv6: per entry, its network's four words, then its mask's four. */
  private readonly v6: Int32Array;

  private constructor(
    v4: readonly [number, number][],
    v6: readonly number[],
    /** The IPv4 entries as [network word (signed, as a session keeps it), prefix length], for an index. */
    readonly prefixesV4: readonly (readonly [number, number])[],
    /** The IPv6 entries as [four network words, prefix length]. */
    readonly prefixesV6: readonly (readonly [number, number, number, number, number])[],
  ) {
    this.v4Low = Float64Array.from(v4, (range) => range[0]);
    this.v4High = Float64Array.from(v4, (range) => range[1]);
    this.v6 = Int32Array.from(v6);
  }

  /**
   * Reads addresses and CIDRs ("10.0.0.1", "10.0.0.0/8", "2001:db8::/32"), IPv4 and IPv6 mixed. A CIDR whose address
   * has bits set past its prefix is refused rather than rounded down: "10.0.0.1/24" is more likely a slip for
   * 10.0.0.1 than a wish for 10.0.0.0/24. Errors are BAD_OPTION naming `field[i]`.
   */
  static parse(entries: unknown, field: string): AddressSet {
    if (!Array.isArray(entries) || entries.length === 0)
      throw badOption(field, "needs a list of at least one address or CIDR");
    const v4: [number, number][] = [];
    const v6: number[] = [];
    const prefixesV4: [number, number][] = [];
    const prefixesV6: [number, number, number, number, number][] = [];
    entries.forEach((entry: unknown, i) => {
      const at = `${field}[${i}]`;
      if (typeof entry !== "string") throw badOption(at, `an address or CIDR is text, not ${JSON.stringify(entry)}`);
      const { bytes, prefix } = parseEntry(entry, at);
      const words = wordsOf(bytes);
      const masks = masksOf(prefix, bytes.length * 8);
      if (words.some((word, w) => (word & ~masks[w]) !== 0)) {
        const network = new Uint8Array(bytes.length);
        for (let w = 0; w < words.length; w++) putWord(network, w * 4, words[w] & masks[w]);
        throw badOption(
          at,
          `"${entry}" has address bits set past its /${prefix} prefix (the network would be ${formatIpAddress(network)}/${prefix})`,
        );
      }
      if (bytes.length === 4) {
        const low = words[0] >>> 0;
        v4.push([low, low + 2 ** (32 - prefix) - 1]);
        prefixesV4.push([words[0], prefix]);
      } else {
        v6.push(...words, ...masks);
        prefixesV6.push([words[0], words[1], words[2], words[3], prefix]);
      }
    });
    return new AddressSet(v4, v6, prefixesV4, prefixesV6);
  }

  /** Whether IPv4 address `word` (first octet in the top byte, signed or not) is in the set. */
  hasV4(word: number): boolean {
    const x = word >>> 0;
    const low = this.v4Low;
    const high = this.v4High;
    for (let i = 0; i < low.length; i++) if (x >= low[i] && x <= high[i]) return true;
    return false;
  }

  /** Whether the IPv6 address in `words` (four 32-bit words, first byte on top) is in the set. */
  hasV6(words: Int32Array): boolean {
    const v6 = this.v6;
    for (let at = 0; at < v6.length; at += 8) {
      if (
        (words[0] & v6[at + 4]) === v6[at] &&
        (words[1] & v6[at + 5]) === v6[at + 1] &&
        (words[2] & v6[at + 6]) === v6[at + 2] &&
        (words[3] & v6[at + 7]) === v6[at + 3]
      )
        return true;
    }
    return false;
  }

  /** Whether the address in the first `length` (4 or 16) bytes of `address` is in the set. */
  has(address: Uint8Array, length: 4 | 16): boolean {
    if (length === 4) return this.hasV4(wordAt(address, 0));
    return this.hasV6(Int32Array.of(wordAt(address, 0), wordAt(address, 4), wordAt(address, 8), wordAt(address, 12)));
  }
}

/** The 32-bit word of `bytes` at `at`, first byte on top (signed, as `| 0` leaves it). */
export function wordAt(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
}

function parseEntry(entry: string, at: string): { bytes: Uint8Array; prefix: number } {
  const slash = entry.indexOf("/");
  const text = slash < 0 ? entry : entry.slice(0, slash);
  const bytes = parseIpAddress(text);
  if (bytes === undefined) throw badOption(at, `"${entry}" is not an IPv4 or IPv6 address or CIDR`);
  const bits = bytes.length * 8;
  if (slash < 0) return { bytes, prefix: bits };
  const prefixText = entry.slice(slash + 1);
  const prefix = /^(0|[1-9]\d{0,2})$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix <= bits))
    throw badOption(at, `"${entry}": an IPv${bits === 32 ? 4 : 6} prefix length is a whole number from 0 to ${bits}`);
  return { bytes, prefix };
}

function wordsOf(bytes: Uint8Array): number[] {
  const words: number[] = [];
  for (let at = 0; at < bytes.length; at += 4) words.push(wordAt(bytes, at));
  return words;
}

/** The masks of a `prefix`-bit prefix over an address of `bits` bits (32 or 128), one per word. */
export function masksOf(prefix: number, bits: number): number[] {
  const masks: number[] = [];
  for (let start = 0; start < bits; start += 32) {
    const inWord = Math.min(Math.max(prefix - start, 0), 32);
    masks.push(inWord === 0 ? 0 : (-1 << (32 - inWord)) | 0);
  }
  return masks;
}

function putWord(out: Uint8Array, at: number, word: number): void {
  out[at] = word >>> 24;
  out[at + 1] = (word >>> 16) & 255;
  out[at + 2] = (word >>> 8) & 255;
  out[at + 3] = word & 255;
}

function badOption(field: string, why: string): TracemillError {
  return new TracemillError("BAD_OPTION", `${field}: ${why}`, { field });
}
