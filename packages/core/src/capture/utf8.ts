// UTF-8 for option strings (names, comments) without TextEncoder/TextDecoder, which the pure core cannot assume.

/** Decodes UTF-8; invalid sequences become U+FFFD. A trailing NUL padding is dropped. */
export function decodeUtf8(bytes: Uint8Array): string {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  let out = "";
  let i = 0;
  while (i < end) {
    const b = bytes[i++];
    if (b < 0x80) {
      out += String.fromCharCode(b);
      continue;
    }
    const extra = b >= 0xf0 && b < 0xf8 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : -1;
    if (extra < 0 || i + extra > end) {
      out += "\ufffd";
      continue;
    }
    let code = b & (0x3f >> extra);
    let ok = true;
    for (let k = 0; k < extra; k++) {
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) ok = false;
      code = (code << 6) | (c & 0x3f);
    }
    if (!ok || code > 0x10ffff) {
      out += "\ufffd";
      continue;
    }
    i += extra;
    out += String.fromCodePoint(code);
  }
  return out;
}

export function encodeUtf8(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else
      bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return Uint8Array.from(bytes);
}
