// Base64 decoding without Node or DOM globals (EVE carries alerted packets in base64).

const values = new Int16Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split("").forEach((c, i) => {
  values[c.charCodeAt(0)] = i;
});

/** Decodes standard base64 (padding optional); undefined when a character is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bits = 0;
  let count = 0;
  let at = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? values[code] : -1;
    if (value < 0) return undefined;
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[at++] = (bits >> count) & 0xff;
    }
  }
  return out.subarray(0, at);
}

/**
 * Decodes the base64 text in b[from, to) (ASCII bytes, padding optional) into `out` from 0, as decodeBase64 does;
 * returns the byte count, or -1 when a byte is not base64 or `out` is too small.
 */
export function decodeBase64Bytes(b: Uint8Array, from: number, to: number, out: Uint8Array): number {
  let end = to;
  while (end > from && b[end - 1] === 61) end--;
  if (Math.floor(((end - from) * 3) / 4) > out.length) return -1;
  let bits = 0;
  let count = 0;
  let at = 0;
  for (let i = from; i < end; i++) {
    const code = b[i];
    const value = code < 128 ? values[code] : -1;
    if (value < 0) return -1;
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[at++] = (bits >> count) & 0xff;
    }
  }
  return at;
}
