// A record as a narrow table of dotted names and values (parameters), and a run summary grouped by its sections, each
// folded (the summary as a whole reads as a list of dotted keys otherwise).
import { Fragment } from "react";
import { isRecordList, SummaryValue } from "./summary-value.js";

/** Nested summary objects become dotted rows ("packets.read"), so the table stays narrow. */
export function flatten(record: Record<string, unknown>, prefix = ""): [string, unknown][] {
  return Object.entries(record).flatMap(([key, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? flatten(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

/** A dotted name with a line-break opportunity after each dot ("ruleset.<wbr>classificationFile"). */
function DottedName({ name }: { name: string }) {
  return (
    <>
      {name.split(".").map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed name
        <Fragment key={i}>
          {i > 0 && (
            <>
              .<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/**
 * A record as rows of dotted names and values (see flatten). A list of records (a small table of its own) takes the
 * whole width, in a row under its name.
 */
export function FlatTable({ record }: { record: Record<string, unknown> }) {
  return (
    <table className="flat-table">
      <tbody>
        {flatten(record).map(([name, value]) =>
          isRecordList(value) ? (
            <Fragment key={name}>
              <tr>
                <th scope="row" colSpan={2}>
                  <DottedName name={name} />
                </th>
              </tr>
              <tr>
                <td colSpan={2}>
                  <SummaryValue value={value} label={name} />
                </td>
              </tr>
            </Fragment>
          ) : (
            <tr key={name}>
              <th scope="row" className="flat-name">
                <DottedName name={name} />
              </th>
              <td>
                <SummaryValue value={value} label={name} />
              </td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

/**
 * A run summary: its plain values first, in one table, then each section (a nested object, or a list of records) as a
 * fold of its own, closed, titled with its name and how many values it holds.
 */
export function GroupedSummary({ record }: { record: Record<string, unknown> }) {
  const entries = Object.entries(record);
  const isSection = (value: unknown) =>
    value !== null && typeof value === "object" && (!Array.isArray(value) || isRecordList(value));
  const plain = Object.fromEntries(entries.filter(([, value]) => !isSection(value)));
  return (
    <>
      {Object.keys(plain).length > 0 && <FlatTable record={plain} />}
      {entries
        .filter(([, value]) => isSection(value))
        .map(([name, value]) => (
          <details key={name} className="summary-section">
            <summary>
              {name} <small className="hint">({sectionSize(value)})</small>
            </summary>
            <FlatTable record={{ [name]: value }} />
          </details>
        ))}
    </>
  );
}

function sectionSize(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? "row" : "rows"}`;
  const count = flatten(value as Record<string, unknown>).length;
  return `${count} ${count === 1 ? "value" : "values"}`;
}
