// One value of a job's run summary or parameters, readable: a list of records (alerts per signature, Suricata's
// passes, the parts of a split capture) as a small table, a list of plain values comma-separated, nothing as "—".

/** Records shown of a long list; the rest are in the job's summary.json. */
export const SHOWN_RECORDS = 20;

type Plain = Record<string, unknown>;

function isRecord(value: unknown): value is Plain {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A value inside a table cell: text, JSON for anything nested deeper. */
function text(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A non-empty list of records: shown as a table. */
export function isRecordList(value: unknown): value is Plain[] {
  return Array.isArray(value) && value.length > 0 && value.every(isRecord);
}

/** `value` as text, or a list of records as a table named `label`. */
export function SummaryValue({ value, label }: { value: unknown; label: string }) {
  if (!Array.isArray(value)) return <>{text(value)}</>;
  if (value.length === 0) return <>none</>;
  if (!isRecordList(value)) return <>{value.map(text).join(", ")}</>;
  const columns = [...new Set(value.flatMap((record) => Object.keys(record)))];
  const shown = value.slice(0, SHOWN_RECORDS);
  return (
    <>
      <div className="summary-list-scroll">
        <table className="summary-list" aria-label={label}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((record, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, shown in its order
              <tr key={i}>
                {columns.map((column) => (
                  <td key={column}>{text(record[column])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {value.length > shown.length && (
        <p className="summary-more">… and {value.length - shown.length} more in summary.json</p>
      )}
    </>
  );
}
