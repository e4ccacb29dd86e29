// A batch of one column read through Arrow IPC and apache-arrow, for the formats in-place-batch.ts does not read
// (dictionary-encoded text, decimals, dates, half floats, …): slower, and general.
import type * as Arrow from "apache-arrow";
import { type ParquetColumn, seconds } from "./parquet-column.js";

let arrow: Promise<typeof Arrow> | null = null;

/** apache-arrow, loaded the first time a column needs it. */
export function loadArrow(): Promise<typeof Arrow> {
  arrow ??= import("apache-arrow");
  return arrow;
}

/** Decimal digits of a time unit's fraction of a second (Arrow's TimeUnit: SECOND … NANOSECOND). */
const UNIT_DIGITS = [0, 3, 6, 9];

/** A value that is no number shown as text: lists as JSON arrays (as the CSV writes them), integers as such. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") {
    const items = Symbol.iterator in value ? [...(value as Iterable<unknown>)] : value;
    return JSON.stringify(items, (_, item) => (typeof item === "bigint" ? Number(item) : item));
  }
  return String(value);
}

/** Adds the rows of an Arrow IPC stream of the column (parquet-wasm's Table.intoIPCStream) to `column`. */
export function addFromIpc(column: ParquetColumn, arrow: typeof Arrow, stream: Uint8Array): void {
  for (const data of arrow.tableFromIPC(stream).getChildAt(0)?.data ?? []) {
    column.expect(data.length);
    const vector = arrow.makeVector(data);
    const digits = arrow.DataType.isTimestamp(data.type) ? UNIT_DIGITS[data.type.unit] : -1;
    for (let i = 0; i < data.length; i++) {
      if (!data.getValid(i)) {
        column.none();
        continue;
      }
      if (column.type === "text") {
        column.text(asText(vector.get(i)));
        continue;
      }
      // A time's raw value: get() would give milliseconds.
      const raw = digits >= 0 ? (data.values as BigInt64Array)[i] : vector.get(i);
      column.number(typeof raw === "bigint" ? (digits >= 0 ? seconds(raw, digits) : Number(raw)) : Number(raw));
    }
  }
}
