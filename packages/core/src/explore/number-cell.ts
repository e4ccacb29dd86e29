// A CSV cell's bytes read as a number, exactly as Number() reads the same text, without making a string for the
// common cells: Parquet's doubles are the nearest doubles to the CSV's decimals, and the two files must agree.

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Digits a mantissa may have and stay an exact double (below 2^53). */
const MAX_EXACT_DIGITS = 15;

const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
const MINUS = 0x2d;
const PLUS = 0x2b;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

const isDigit = (byte: number) => byte >= ZERO && byte <= NINE;

/**
 * The finite number `bytes[start, end)` spells as a decimal (`-12`, `3.5`, `.5`, `1e-3`), or NaN for anything else
 * (empty, words, `NaN`, `Infinity`, spaces, hex, or a value beyond the doubles). Without an exponent and with at most
 * 15 digits the mantissa and 10^k are exact doubles, so one division gives the correctly rounded value (Clinger's
 * fast path); other spellings go through Number(), which rounds correctly too.
 */
export function parseNumberCell(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let negative = false;
  if (i < end && (bytes[i] === MINUS || bytes[i] === PLUS)) negative = bytes[i++] === MINUS;
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  let dot = false;
  for (; i < end; i++) {
    const byte = bytes[i];
    if (isDigit(byte)) {
      mantissa = mantissa * 10 + (byte - ZERO);
      digits++;
      if (dot) scale++;
    } else if (byte === DOT && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (digits === 0) return Number.NaN;
  if (i === end && digits <= MAX_EXACT_DIGITS && scale < POWERS_OF_TEN.length) {
    const value = mantissa / POWERS_OF_TEN[scale];
    return negative ? -value : value;
  }
  if (i < end) {
    // Only an exponent may follow the digits.
    if (bytes[i] !== LOWER_E && bytes[i] !== UPPER_E) return Number.NaN;
    i++;
    if (i < end && (bytes[i] === MINUS || bytes[i] === PLUS)) i++;
    if (i === end) return Number.NaN;
    for (; i < end; i++) if (!isDigit(bytes[i])) return Number.NaN;
  }
  let text = "";
  for (let k = start; k < end; k++) text += String.fromCharCode(bytes[k]);
  const value = Number(text);
  return Number.isFinite(value) ? value : Number.NaN;
}
