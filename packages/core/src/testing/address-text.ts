// Test-only: an address from a DecodedPacket as text (dotted IPv4, RFC 5952 IPv6), to compare with other tools' output.
import { formatIpAddress } from "../net/ip-address.js";

/** `bytes` holds 4 (version 4) or 16 (version 6) address bytes at its start. */
export function addressText(bytes: Uint8Array, version: 4 | 6): string {
  return formatIpAddress(bytes.subarray(0, version === 4 ? 4 : 16));
}
