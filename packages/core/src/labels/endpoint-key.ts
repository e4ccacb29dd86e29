// A session's identity for labelling and for splitting out attack traffic: protocol plus the unordered pair of
// address:port endpoints (either direction).

/**
 * The same short string for both directions of a conversation: 16-bit units of protocol, both ports and both
 * addresses, lower endpoint (by address bytes, then port) first. Far cheaper to build and hash than text.
 * `addressLength` is 4 (IPv4) or 16 (IPv6): only that many bytes of each address are read, so the decoder's reused
 * 16-byte buffers can be passed as they are; the key's length keeps IPv4 and IPv6 keys apart.
 */
export function endpointPairKey(
  protocol: number,
  addressLength: number,
  a: Uint8Array,
  aPort: number,
  b: Uint8Array,
  bPort: number,
): string {
  let order = 0;
  for (let i = 0; i < addressLength && order === 0; i++) order = a[i] - b[i];
  if (order === 0) order = aPort - bPort;
  const [x, xPort, y, yPort] = order <= 0 ? [a, aPort, b, bPort] : [b, bPort, a, aPort];
  const units: number[] = [protocol, xPort, yPort];
  for (let i = 0; i < addressLength; i += 2) units.push((x[i] << 8) | x[i + 1], (y[i] << 8) | y[i + 1]);
  return String.fromCharCode(...units);
}
