// A session's identity for labelling: protocol plus the unordered pair of address:port endpoints (either direction).

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function endpointText(address: Uint8Array, addressLength: number, port: number): string {
  let text = "";
  for (let i = 0; i < addressLength; i++) text += HEX[address[i]];
  return `${text}.${port}`;
}

/** Compares two endpoints by address bytes, then port: the order that makes the key direction-free. */
function compareEndpoints(addressLength: number, a: Uint8Array, aPort: number, b: Uint8Array, bPort: number): number {
  for (let i = 0; i < addressLength; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return aPort - bPort;
}

/**
 * The same string for both directions of a conversation. `addressLength` is 4 (IPv4) or 16 (IPv6): only that many
 * bytes of each address are read, so the decoder's reused 16-byte buffers can be passed as they are.
 */
export function endpointPairKey(
  protocol: number,
  addressLength: number,
  a: Uint8Array,
  aPort: number,
  b: Uint8Array,
  bPort: number,
): string {
  const first = endpointText(a, addressLength, aPort);
  const second = endpointText(b, addressLength, bPort);
  return compareEndpoints(addressLength, a, aPort, b, bPort) <= 0
    ? `${protocol}/${first}/${second}`
    : `${protocol}/${second}/${first}`;
}
