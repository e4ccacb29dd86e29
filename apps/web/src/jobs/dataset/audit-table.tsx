// The leakage audit's table: every audited column with its balanced accuracy, flagged ones highlighted; the headers
// sort it (flagged first and the highest accuracy first, at first); the stylesheet draws the sorted column's arrow.
import { useState } from "react";
import type { AuditRow } from "./dataset-summary.js";

type SortKey = "column" | "accuracy" | "flagged";
type Order = "ascending" | "descending";

const accuracy = (row: AuditRow) => (row.balancedAccuracy === null ? -1 : row.balancedAccuracy);

function compare(a: AuditRow, b: AuditRow, key: SortKey): number {
  if (key === "column") return a.column.localeCompare(b.column);
  if (key === "accuracy") return accuracy(a) - accuracy(b) || a.column.localeCompare(b.column);
  return Number(a.flagged) - Number(b.flagged) || accuracy(a) - accuracy(b);
}

/** Words A to Z first; the flag and the accuracy highest first, as a reader looks for the worst columns. */
const firstOrder = (key: SortKey): Order => (key === "column" ? "ascending" : "descending");

const reasons: Record<string, string> = {
  score: "separates the classes alone",
  identifier: "an identifier (address, port, time)",
  "score+identifier": "an identifier that separates the classes alone",
};

export function AuditTable({ rows, threshold }: { rows: AuditRow[]; threshold?: number }) {
  const [sort, setSort] = useState<{ key: SortKey; order: Order }>({ key: "flagged", order: "descending" });
  const sorted = [...rows].sort((a, b) => {
    const c = compare(a, b, sort.key);
    return sort.order === "ascending" ? c : -c;
  });
  const header = (key: SortKey, label: string) => (
    <th scope="col" aria-sort={sort.key === key ? sort.order : undefined}>
      <button
        type="button"
        className="sort-button"
        onClick={() =>
          setSort((current) =>
            current.key === key
              ? { key, order: current.order === "ascending" ? "descending" : "ascending" }
              : { key, order: firstOrder(key) },
          )
        }
      >
        {label}
      </button>
    </th>
  );
  const flagged = rows.filter((row) => row.flagged).length;
  return (
    <>
      <p>
        {flagged} of {rows.length} columns flagged
        {threshold !== undefined && ` (balanced accuracy ${threshold} or above, or an identifier by name)`}.
      </p>
      <div className="table-scroll">
        <table className="wide audit-table" aria-label="Leakage audit">
          <thead>
            <tr>
              {header("column", "Column")}
              {header("accuracy", "Balanced accuracy")}
              {header("flagged", "Flagged")}
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              <tr key={row.column} className={row.flagged ? "flagged" : undefined}>
                <th scope="row">{row.column}</th>
                <td className="number">{row.balancedAccuracy === null ? "–" : row.balancedAccuracy.toFixed(3)}</td>
                <td>{row.flagged ? `Flagged: ${reasons[row.reason ?? ""] ?? "flagged"}` : ""}</td>
                <td>{row.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
