// Recognises the member names of Suricata's compact EVE objects by the order Suricata writes them in: the name due
// next (or one a little further on, when optional members are absent) is compared in place as `"name":`, so most
// members cost one short comparison instead of a scan to the closing quote and a lookup.
import { ascii, skipValue, stringEnd } from "./eve-bytes.js";

const QUOTE = 34;

export class MemberOrder {
  /** After `read`: where the member's value starts. */
  valueAt = -1;
  /** After `findIn`: where the wanted member's value starts, -1 when the object has none. */
  foundAt = -1;
  private readonly patterns: Uint8Array[];
  private readonly ids: Int32Array;
  private expected = 0;

  /** `members`: ids and names in Suricata's order; a name not listed reads as `other`. */
  constructor(
    members: readonly (readonly [id: number, name: string])[],
    private readonly other: number,
  ) {
    this.patterns = members.map(([, name]) => ascii(`"${name}":`));
    this.ids = Int32Array.from(members, ([id]) => id);
  }

  /** Starts over at the first name, for a new object. */
  reset(): void {
    this.expected = 0;
  }

  /**
   * The id of the member whose name starts at b[at] (its opening quote), with `valueAt`; -1 when no string followed
   * by ":" starts there. Names are taken exactly as a scan to the closing quote would take them.
   */
  read(b: Uint8Array, at: number, end: number): number {
    const patterns = this.patterns;
    for (let e = this.expected; e < patterns.length; e++) {
      if (matches(b, at, end, patterns[e])) return this.take(e, at + patterns[e].length);
    }
    const keyEnd = b[at] === QUOTE ? stringEnd(b, at + 1, end) : -1;
    if (keyEnd < 0 || b[keyEnd + 1] !== 58) return -1;
    // A listed name out of its usual place.
    for (let e = 0; e < patterns.length; e++) {
      if (patterns[e].length === keyEnd + 2 - at && matches(b, at, end, patterns[e])) return this.take(e, keyEnd + 2);
    }
    this.valueAt = keyEnd + 2;
    return this.other;
  }

  /**
   * Index just past the object at b[at], with `foundAt` the value of its (last) member of id `wanted`; -1 when it is
   * not a compact object.
   */
  findIn(b: Uint8Array, at: number, end: number, wanted: number): number {
    this.foundAt = -1;
    if (b[at] !== 123) return -1;
    let i = at + 1;
    if (b[i] === 125) return i + 1;
    this.reset();
    for (;;) {
      const id = this.read(b, i, end);
      if (id < 0) return -1;
      if (id === wanted) this.foundAt = this.valueAt;
      i = skipValue(b, this.valueAt, end);
      if (i < 0) return -1;
      if (b[i] === 125) return i + 1;
      if (b[i] !== 44) return -1;
      i++;
    }
  }

  private take(e: number, valueAt: number): number {
    this.expected = e + 1;
    this.valueAt = valueAt;
    return this.ids[e];
  }
}

/** True when b[at, end) starts with `pattern`. */
function matches(b: Uint8Array, at: number, end: number, pattern: Uint8Array): boolean {
  const n = pattern.length;
  if (at + n > end) return false;
  for (let k = 0; k < n; k++) if (b[at + k] !== pattern[k]) return false;
  return true;
}
