// Lists of numbers (the nfstream set's early-packet sequences) as codes of text: rows are told apart by their items,
// hashed, and a list's text (a JSON array, as the CSV writes the cell) is made once per different list, not once per
// row: a column of 140 000 lists of 32 items holds a few hundred different ones.

/** A batch's list items: the values, and 64-bit integers also seen as pairs of 32-bit words. */
export interface ListItems {
  values: ArrayLike<number | bigint>;
  words: Int32Array | null;
}

export function listItems(values: ArrayLike<number | bigint>): ListItems {
  // Most items (sizes, directions, -1 for none) fit a 64-bit integer's low word, which costs far less to read than
  // a BigInt's conversion.
  const words =
    values instanceof BigInt64Array ? new Int32Array(values.buffer, values.byteOffset, values.length * 2) : null;
  return { values, words };
}

function itemValue({ values, words }: ListItems, k: number): number {
  if (words !== null) {
    const low = words[2 * k];
    const high = words[2 * k + 1];
    if ((high === 0 && low >= 0) || (high === -1 && low < 0)) return low;
  }
  return Number(values[k]);
}

export class NumberLists {
  private readonly seen = new Map<number, { items: Float64Array; code: number }[]>();
  private scratch = new Float64Array(64);

  /** `codeOfText` gives the code of a list's text, a new one for a text not seen before. */
  constructor(private readonly codeOfText: (text: string) => number) {}

  /** The code of the list of items [start, end). */
  code(items: ListItems, start: number, end: number): number {
    const length = end - start;
    if (this.scratch.length < length) this.scratch = new Float64Array(length);
    let hash = length;
    for (let k = 0; k < length; k++) {
      const value = itemValue(items, start + k);
      this.scratch[k] = value;
      hash = Math.imul(hash ^ (value | 0), 0x01000193);
    }
    let bucket = this.seen.get(hash);
    for (const entry of bucket ?? []) {
      if (entry.items.length === length && sameItems(entry.items, this.scratch)) return entry.code;
    }
    const list = this.scratch.slice(0, length);
    const code = this.codeOfText(`[${Array.from(list, String).join(",")}]`);
    if (bucket === undefined) {
      bucket = [];
      this.seen.set(hash, bucket);
    }
    bucket.push({ items: list, code });
    return code;
  }
}

function sameItems(known: Float64Array, scratch: Float64Array): boolean {
  for (let k = 0; k < known.length; k++) if (known[k] !== scratch[k]) return false;
  return true;
}
