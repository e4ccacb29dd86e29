// The session a feature CSV's row describes, read from its session key columns (features/groups/endpoints.ts), and
// the search that picks sessions by address and port.
import { formatIpAddress, parseIpAddress } from "../net/index.js";

/** The session key's columns as a feature CSV names them, in the order SessionKey lists them. */
export const SESSION_KEY_COLUMNS = ["protocol", "ts", "srcIP", "srcPrt", "dstIP", "dstPrt"] as const;

export interface SessionKey {
  /** IP protocol number (6 TCP, 17 UDP, …). */
  protocol: number | null;
  /** The first packet's time as the CSV writes it: seconds since 1970 (UTC), exact. */
  start: string;
  srcIP: string;
  srcPort: number | null;
  dstIP: string;
  dstPort: number | null;
}

/** Where each key column is in a header, or null when the header lacks one (no Tracemill feature CSV). */
export function sessionKeyColumns(header: readonly string[]): number[] | null {
  const at = SESSION_KEY_COLUMNS.map((name) => header.indexOf(name));
  return at.includes(-1) ? null : at;
}

const whole = (text: string): number | null => (/^\d+$/.test(text) ? Number(text) : null);

/** The session of a row, given its cells at the key columns' positions (sessionKeyColumns' order). */
export function sessionKey(cells: readonly string[]): SessionKey {
  const [protocol, start, srcIP, srcPort, dstIP, dstPort] = cells;
  return {
    protocol: whole(protocol ?? ""),
    start: start ?? "",
    srcIP: srcIP ?? "",
    srcPort: whole(srcPort ?? ""),
    dstIP: dstIP ?? "",
    dstPort: whole(dstPort ?? ""),
  };
}

/** A search: every term must match one side of the session. */
export interface SessionQuery {
  ports: number[];
  /** Whole addresses (as the CSV writes them) and the starts of addresses, lower case. */
  addresses: { text: string; whole: boolean }[];
}

/**
 * Reads a search text: terms apart by spaces; a number is a port (0–65535), an address is matched whole (any
 * spelling: `2001:DB8:0::1` finds `2001:db8::1`), anything else is the start of an address (`10.1.`). Returns the
 * query, or the term that is no port.
 */
export function parseSessionQuery(text: string): SessionQuery | { error: string } {
  const query: SessionQuery = { ports: [], addresses: [] };
  for (const term of text.trim().split(/\s+/).filter(Boolean)) {
    if (/^\d+$/.test(term)) {
      const port = Number(term);
      if (port > 65_535) return { error: `"${term}" is no port (0–65535) and no address` };
      query.ports.push(port);
      continue;
    }
    const bytes = parseIpAddress(term);
    query.addresses.push(
      bytes ? { text: formatIpAddress(bytes), whole: true } : { text: term.toLowerCase(), whole: false },
    );
  }
  return query;
}

export function matchesSession(session: SessionKey, query: SessionQuery): boolean {
  for (const port of query.ports) if (session.srcPort !== port && session.dstPort !== port) return false;
  for (const { text, whole } of query.addresses) {
    const src = session.srcIP.toLowerCase();
    const dst = session.dstIP.toLowerCase();
    if (whole ? src !== text && dst !== text : !src.startsWith(text) && !dst.startsWith(text)) return false;
  }
  return true;
}
