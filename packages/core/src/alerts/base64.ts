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

/**
 * Decodes the base64 JSON string whose text starts at b[from] (just past its opening quote) into `out` from 0, in
 * one pass that also finds the closing quote: returns the byte count and puts the quote's index in `quoteAt[0]`.
 * Returns -1 when anything but base64 and trailing padding comes before a quote (an escape, a stray "=", the line's
 * end) or `out` is too small: the caller then takes the two-pass way (skipValue, decodeBase64Bytes).
 */
export function decodeBase64String(
  b: Uint8Array,
  from: number,
  end: number,
  out: Uint8Array,
  quoteAt: Int32Array,
): number {
  let i = from;
  let at = 0;
  const room = out.length - 3;
  // Whole groups of four characters first: three bytes each.
  while (i + 4 <= end && at <= room) {
    const c0 = b[i];
    const c1 = b[i + 1];
    const c2 = b[i + 2];
    const c3 = b[i + 3];
    if ((c0 | c1 | c2 | c3) >= 128) break;
    const v0 = values[c0];
    const v1 = values[c1];
    const v2 = values[c2];
    const v3 = values[c3];
    if ((v0 | v1 | v2 | v3) < 0) break;
    const bits = (v0 << 18) | (v1 << 12) | (v2 << 6) | v3;
    out[at] = bits >> 16;
    out[at + 1] = (bits >> 8) & 0xff;
    out[at + 2] = bits & 0xff;
    at += 3;
    i += 4;
  }
  // The rest as decodeBase64Bytes reads it: leftover characters, then padding, then the quote.
  let bits = 0;
  let count = 0;
  for (; i < end; i++) {
    const code = b[i];
    const value = code < 128 ? values[code] : -1;
    if (value < 0) break;
    if (at >= out.length) return -1;
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[at++] = (bits >> count) & 0xff;
    }
  }
  while (i < end && b[i] === 61) i++;
  if (i >= end || b[i] !== 34) return -1;
  quoteAt[0] = i;
  return at;
}
