// A batch of one column read in place from parquet-wasm's memory (arrow-c-data.ts) for the formats Tracemill's
// outputs hold: integers, floats, times, UTF-8 text, booleans and lists of numbers. Any other format (a dictionary,
// a decimal, a date) is read through Arrow IPC instead (ipc-batch.ts).
import {
  type CArray,
  type CSchema,
  readArray,
  readSchema,
  type TypedArrayOf,
  typed,
  validity,
} from "./arrow-c-data.js";
import { listItems } from "./number-lists.js";
import { type ParquetColumn, seconds } from "./parquet-column.js";

type NumberArray = ArrayLike<number | bigint>;

/** Arrow's C format strings of integers and floats, and their typed arrays. */
const NUMBER_ARRAYS: Record<string, TypedArrayOf<NumberArray>> = {
  c: Int8Array,
  C: Uint8Array,
  s: Int16Array,
  S: Uint16Array,
  i: Int32Array,
  I: Uint32Array,
  l: BigInt64Array,
  L: BigUint64Array,
  f: Float32Array,
  g: Float64Array,
};
/** Timestamps ("tsn:UTC"): digits of a second in their unit's fraction. */
const TIME_DIGITS: Record<string, number> = { s: 0, m: 3, u: 6, n: 9 };

const isTime = (format: string) => format.startsWith("ts") && format[2] in TIME_DIGITS;

/** What the reader needs of a column's schema, copied out of the memory the schema was exported to. */
export interface ColumnFormat {
  name: string;
  /** Arrow's C format string ("g", "l", "tsn:UTC", "u", "+l", …). */
  format: string;
  dictionary: boolean;
  /** A list's items' format ("" for other columns). */
  items: string;
}

export function columnFormat(memory: ArrayBuffer, schema: CSchema): ColumnFormat {
  const list = schema.format === "+l" || schema.format === "+L";
  const items = list ? readSchema(memory, schema.children[0]) : null;
  return {
    name: schema.name,
    format: schema.format,
    dictionary: schema.dictionary !== 0,
    items: items && items.dictionary === 0 ? items.format : "",
  };
}

/** Integers, floats and times are numbers; text, booleans, lists and everything else are read as text. */
export function isNumeric({ format, dictionary }: ColumnFormat): boolean {
  return !dictionary && (format in NUMBER_ARRAYS || format === "e" || isTime(format));
}

/** Whether a column of this format is read in place. */
export function readsInPlace({ format, dictionary, items }: ColumnFormat): boolean {
  if (dictionary) return false;
  if (format in NUMBER_ARRAYS || isTime(format) || format === "u" || format === "U" || format === "b") return true;
  return (format === "+l" || format === "+L") && items in NUMBER_ARRAYS;
}

/** Adds the batch's rows of the column whose array is at `at` (a column of `columnFormat`) to `column`. */
export function addInPlace(
  column: ParquetColumn,
  memory: ArrayBuffer,
  at: number,
  { format, items }: ColumnFormat,
): void {
  const array = readArray(memory, at);
  column.expect(array.length);
  const valid = validity(memory, array);
  if (format in NUMBER_ARRAYS || isTime(format)) {
    const values = typed(
      NUMBER_ARRAYS[isTime(format) ? "l" : format],
      memory,
      array.buffers[1],
      array.offset + array.length,
    );
    const digits = isTime(format) ? TIME_DIGITS[format[2]] : -1;
    for (let i = 0; i < array.length; i++) {
      if (valid !== null && !valid(i)) column.none();
      else {
        const item = values[array.offset + i];
        column.number(typeof item === "bigint" ? (digits >= 0 ? seconds(item, digits) : Number(item)) : item);
      }
    }
    return;
  }
  if (format === "b") {
    const bits = new Uint8Array(memory, array.buffers[1], (array.offset + array.length + 7) >> 3);
    for (let i = 0; i < array.length; i++) {
      const bit = array.offset + i;
      if (valid !== null && !valid(i)) column.none();
      else column.text((bits[bit >> 3] & (1 << (bit & 7))) !== 0 ? "true" : "false");
    }
    return;
  }
  const offsets = offsetsOf(memory, array, format === "U" || format === "+L");
  if (format === "u" || format === "U") {
    const bytes = new Uint8Array(memory, array.buffers[2], Number(offsets[array.offset + array.length]));
    const utf8 = new TextDecoder();
    for (let i = 0; i < array.length; i++) {
      if (valid !== null && !valid(i)) column.none();
      else
        column.text(
          utf8.decode(bytes.subarray(Number(offsets[array.offset + i]), Number(offsets[array.offset + i + 1]))),
        );
    }
    return;
  }
  addLists(column, memory, array, items, offsets, valid);
}

function offsetsOf(memory: ArrayBuffer, array: CArray, large: boolean): NumberArray {
  const count = array.offset + array.length + 1;
  return large
    ? typed(BigInt64Array, memory, array.buffers[1], count)
    : typed(Int32Array, memory, array.buffers[1], count);
}

function addLists(
  column: ParquetColumn,
  memory: ArrayBuffer,
  array: CArray,
  itemFormat: string,
  offsets: NumberArray,
  valid: ((index: number) => boolean) | null,
): void {
  const itemArray = readArray(memory, array.children[0]);
  const end = Number(offsets[array.offset + array.length]);
  const values = typed(NUMBER_ARRAYS[itemFormat], memory, itemArray.buffers[1], itemArray.offset + end);
  const items = listItems(itemArray.offset === 0 ? values : offsetView(values, itemArray.offset));
  const validItem = validity(memory, itemArray);
  for (let i = 0; i < array.length; i++) {
    const start = Number(offsets[array.offset + i]);
    const stop = Number(offsets[array.offset + i + 1]);
    if (valid !== null && !valid(i)) column.none();
    else if (validItem === null) column.list(items, start, stop);
    else {
      // Null items, which no Tracemill output has, are written as JSON writes them.
      const texts = [];
      for (let k = start; k < stop; k++) texts.push(validItem(k) ? String(Number(items.values[k])) : "null");
      column.text(`[${texts.join(",")}]`);
    }
  }
}

/** A typed array's elements from `offset` on. */
function offsetView(values: NumberArray, offset: number): NumberArray {
  return (values as unknown as { subarray(start: number): NumberArray }).subarray(offset);
}
