// The Feature Set page's column list agrees with docs/features.md, column by column.
import { describe, expect, it } from "vitest";
import featuresDoc from "../../../../docs/features.md?raw";
import { featureColumns } from "./feature-columns.js";

/** The column table of docs/features.md: rows "| 12–15 | a, b, c, d | … |" or "| 25–29 | first … last | … |". */
function documentedColumns(markdown: string) {
  const rows: { from: number; to: number; names: string[]; elided: boolean }[] = [];
  for (const line of markdown.split("\n")) {
    const match = /^\|\s*(\d+)(?:\s*[–-]\s*(\d+))?\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (!match) continue;
    const from = Number(match[1]);
    const elided = match[3].includes("…");
    const names = match[3].split(/\s*(?:,|…)\s*/).filter(Boolean);
    rows.push({ from, to: match[2] ? Number(match[2]) : from, names, elided });
  }
  return rows;
}

describe("feature columns", () => {
  const names = featureColumns.map((c) => c.name);
  const rows = documentedColumns(featuresDoc);

  it("lists as many columns as docs/features.md, each once and each defined", () => {
    expect(rows.length).toBeGreaterThan(20);
    expect(names).toHaveLength(Math.max(...rows.map((r) => r.to)));
    expect(new Set(names).size).toBe(names.length);
    for (const column of featureColumns) expect(column.definition.length).toBeGreaterThan(10);
  });

  it("has every documented column at its documented position", () => {
    for (const row of rows) {
      if (row.elided) {
        expect(names[row.from - 1], `column ${row.from}`).toBe(row.names[0]);
        expect(names[row.to - 1], `column ${row.to}`).toBe(row.names.at(-1));
      } else {
        expect(row.names, `columns ${row.from}–${row.to}`).toHaveLength(row.to - row.from + 1);
        expect(names.slice(row.from - 1, row.to), `columns ${row.from}–${row.to}`).toEqual(row.names);
      }
    }
  });
});
