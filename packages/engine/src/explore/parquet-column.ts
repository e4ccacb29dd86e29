// One Parquet column's values gathered batch by batch into the explorer's ColumnData: numbers (times as seconds,
// exactly as the CSV writes them), or text codes (lists as the CSV's JSON arrays).
import { type ColumnData, type InvalidCell, TracemillError } from "@tracemill/core";
import { type ListItems, NumberLists } from "./number-lists.js";

/**
 * A time in seconds, as the CSV writes it and Number() reads it back: the exact decimal, rounded once, so a Parquet
 * column and the CSV of the same rows give the same doubles. `digits`: of the unit's fraction of a second.
 */
export function seconds(value: bigint, digits: number): number {
  if (digits === 0) return Number(value);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const scale = 10n ** BigInt(digits);
  const fraction = (magnitude % scale).toString().padStart(digits, "0");
  return Number(`${negative ? "-" : ""}${magnitude / scale}.${fraction}`);
}

export class ParquetColumn {
  private at = 0;
  private readonly values: Float64Array;
  private readonly codes: Uint32Array;
  /** Empty text is missing, as an empty CSV cell is. */
  private readonly codeOf = new Map<string, number>([["", 0]]);
  private readonly dictionary: string[] = [""];
  private lists: NumberLists | null = null;
  private missing = 0;
  private invalid = 0;
  private firstInvalid: InvalidCell | null = null;

  constructor(
    readonly type: "numeric" | "text",
    private readonly rows: number,
  ) {
    this.values = new Float64Array(type === "numeric" ? rows : 0);
    this.codes = new Uint32Array(type === "text" ? rows : 0);
  }

  /** Makes room for a batch of `length` rows; more rows than the footer said is a damaged file. */
  expect(length: number): void {
    if (this.at + length > this.rows) throw new Error(`more rows than the footer's ${this.rows}`);
  }

  number(value: number): void {
    const row = this.at++;
    if (Number.isFinite(value)) {
      this.values[row] = value;
      return;
    }
    this.invalid++;
    this.firstInvalid ??= { row: row + 1, line: null, text: String(value) };
    this.values[row] = Number.NaN;
  }

  /** A null: missing, as an empty CSV cell is. */
  none(): void {
    const row = this.at++;
    if (this.type === "numeric") {
      this.missing++;
      this.values[row] = Number.NaN;
    } else {
      this.codes[row] = 0;
    }
  }

  text(text: string): void {
    this.codes[this.at++] = this.codeOfText(text);
  }

  /** A list of numbers, items [start, end) of a batch's items. */
  list(items: ListItems, start: number, end: number): void {
    this.lists ??= new NumberLists((text) => this.codeOfText(text));
    this.codes[this.at++] = this.lists.code(items, start, end);
  }

  done(label: string, name: string): ColumnData {
    if (this.at !== this.rows) {
      throw new TracemillError(
        "BAD_INPUT",
        `${label}: column ${name} has ${this.at} rows, the footer says ${this.rows}`,
      );
    }
    if (this.type === "text") return { type: "text", codes: this.codes, dictionary: this.dictionary };
    const { values, missing, invalid, firstInvalid } = this;
    return { type: "numeric", values, missing, invalid, firstInvalid };
  }

  private codeOfText(text: string): number {
    let code = this.codeOf.get(text);
    if (code === undefined) {
      code = this.dictionary.push(text) - 1;
      this.codeOf.set(text, code);
    }
    return code;
  }
}
