// Rows split into groups by the value of a label or class column: the largest groups by name, the rest as one
// "(other)" group, so that a split of a thousand classes still draws as a few colours.
import { type ColumnData, columnRows } from "./column-data.js";

/** Groups shown by name; the others are counted together. */
export const MAX_GROUPS = 8;
/** The name of the group of all the rest, and of an empty cell's group. */
export const OTHER_GROUP = "(other)";
export const EMPTY_GROUP = "(empty)";

export interface RowGroups {
  /** The groups' names, largest first (ties by name), "(other)" last when some were merged. */
  names: string[];
  /** The group of each row. */
  of: Int32Array;
}

/** A number as a group's name: as the CSV writes it (integers without a fraction). */
const numberName = (value: number) => (Number.isNaN(value) ? EMPTY_GROUP : String(value));

export function rowGroups(column: ColumnData): RowGroups {
  const rows = columnRows(column);
  const keyOf = new Int32Array(rows);
  const names: string[] = [];
  if (column.type === "text") {
    const index = new Map<number, number>();
    for (let row = 0; row < rows; row++) {
      const code = column.codes[row];
      let key = index.get(code);
      if (key === undefined) {
        key = names.push(code === 0 ? EMPTY_GROUP : column.dictionary[code]) - 1;
        index.set(code, key);
      }
      keyOf[row] = key;
    }
  } else {
    const index = new Map<string, number>();
    for (let row = 0; row < rows; row++) {
      const name = numberName(column.values[row]);
      let key = index.get(name);
      if (key === undefined) {
        key = names.push(name) - 1;
        index.set(name, key);
      }
      keyOf[row] = key;
    }
  }
  const sizes = new Array<number>(names.length).fill(0);
  for (let row = 0; row < rows; row++) sizes[keyOf[row]]++;
  const ranked = names
    .map((name, key) => ({ name, key }))
    .sort((a, b) => sizes[b.key] - sizes[a.key] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const merged = ranked.length > MAX_GROUPS;
  const shown = merged ? ranked.slice(0, MAX_GROUPS - 1) : ranked;
  const groupOfKey = new Int32Array(names.length).fill(shown.length);
  shown.forEach((group, at) => {
    groupOfKey[group.key] = at;
  });
  const of = new Int32Array(rows);
  for (let row = 0; row < rows; row++) of[row] = groupOfKey[keyOf[row]];
  return { names: [...shown.map((group) => group.name), ...(merged ? [OTHER_GROUP] : [])], of };
}
