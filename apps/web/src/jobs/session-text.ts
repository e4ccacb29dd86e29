// A session as people read it, for the gallery's rows and the IPT plots' choices: "UDP 10.0.0.1:5353 → 192.0.2.1:53",
// and its start in UTC to the millisecond (the exact seconds stay in the title).
import type { SessionKeyView } from "@tracemill/contracts";
import { protocolName } from "../charts/csv.js";

/** An address and port; IPv6 addresses in brackets, so the port's colon is not read as part of them. */
const endpoint = (address: string, port: number | null) => {
  const host = address.includes(":") ? `[${address}]` : address;
  return port === null ? host : `${host}:${port}`;
};

export function sessionText(session: SessionKeyView): string {
  const protocol = session.protocol === null ? "?" : protocolName(String(session.protocol));
  return `${protocol} ${endpoint(session.srcIP, session.srcPort)} → ${endpoint(session.dstIP, session.dstPort)}`;
}

/** "2023-11-14 22:13:20.500 UTC" from seconds since 1970; the text as given when it is no number. */
export function startText(start: string): string {
  const seconds = Number(start);
  if (start === "" || !Number.isFinite(seconds)) return start;
  return `${new Date(seconds * 1000).toISOString().replace("T", " ").replace("Z", "")} UTC`;
}
