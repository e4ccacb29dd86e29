// A set of address rewrites "A=B" for one address family each, looked up by the bytes of a packet's address.
import { TracemillError } from "../errors.js";
import { formatIpAddress, requireIpAddress } from "../net/ip-address.js";

/** One rewrite, as given by the user: every occurrence of `from` (source or destination) becomes `to`. */
export interface AddressMapping {
  from: string;
  to: string;
}

/** Parses "A=B" (as given to `--map`) into a mapping, checking both addresses. */
export function parseAddressMapping(text: string): AddressMapping {
  const parts = text.split("=");
  if (parts.length !== 2) {
    throw new TracemillError("BAD_OPTION", `a mapping is written FROM=TO, got "${text}"`, { mapping: text });
  }
  const [from, to] = parts.map((part) => part.trim());
  requireIpAddress(from);
  requireIpAddress(to);
  return { from, to };
}

/**
 * The mappings in byte form. Each rewrite keeps its address family: an IPv4 address cannot become IPv6 (the
 * header would change size), so such a mapping is refused. Lookups compare bytes in place, without allocating.
 */
export class AddressMap {
  /** Canonical text of the mappings, in the order given (for the provenance record). */
  readonly mappings: readonly AddressMapping[];
  private readonly v4 = new Map<number, Uint8Array>();
  private readonly v6From: Uint8Array[] = [];
  private readonly v6To: Uint8Array[] = [];

  constructor(mappings: readonly AddressMapping[]) {
    const canonical: AddressMapping[] = [];
    const seen = new Set<string>();
    for (const mapping of mappings) {
      const from = requireIpAddress(mapping.from);
      const to = requireIpAddress(mapping.to);
      if (from.length !== to.length) {
        throw new TracemillError(
          "BAD_OPTION",
          `cannot map ${mapping.from} to ${mapping.to}: both sides must be IPv4 or both IPv6`,
          { mapping: `${mapping.from}=${mapping.to}` },
        );
      }
      const key = formatIpAddress(from);
      if (seen.has(key)) {
        throw new TracemillError("BAD_OPTION", `address ${key} is mapped twice`, { address: key });
      }
      seen.add(key);
      canonical.push({ from: key, to: formatIpAddress(to) });
      if (from.length === 4) this.v4.set(ipv4Key(from, 0), to);
      else {
        this.v6From.push(from);
        this.v6To.push(to);
      }
    }
    this.mappings = canonical;
  }

  get size(): number {
    return this.mappings.length;
  }

  /** The replacement for the IPv4 address at `data[offset..offset+4)`, or undefined when it is not mapped. */
  lookupV4(data: Uint8Array, offset: number): Uint8Array | undefined {
    return this.v4.size === 0 ? undefined : this.v4.get(ipv4Key(data, offset));
  }

  /** The replacement for the IPv6 address at `data[offset..offset+16)`, or undefined when it is not mapped. */
  lookupV6(data: Uint8Array, offset: number): Uint8Array | undefined {
    // A linear scan: mappings are a handful of attacker and victim addresses.
    for (let m = 0; m < this.v6From.length; m++) {
      const from = this.v6From[m];
      let i = 0;
      while (i < 16 && from[i] === data[offset + i]) i++;
      if (i === 16) return this.v6To[m];
    }
    return undefined;
  }
}

function ipv4Key(data: Uint8Array, offset: number): number {
  return ((data[offset] << 24) | (data[offset + 1] << 16) | (data[offset + 2] << 8) | data[offset + 3]) >>> 0;
}
