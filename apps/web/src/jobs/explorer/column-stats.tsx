// A column's figures as a table: counts, and for numbers pandas' describe() (min, percentiles, mean, std, max).
import type { ColumnSummary } from "@tracemill/contracts";
import { formatNumber } from "./table-outputs.js";

export function ColumnStats({ summary }: { summary: ColumnSummary }) {
  const { stats } = summary;
  const rows: [string, string][] = [
    ["Rows", formatNumber(summary.rows)],
    ["Values", formatNumber(summary.count)],
    ["Missing", formatNumber(summary.missing)],
  ];
  if (summary.invalid > 0) {
    const first = summary.firstInvalid;
    const where = first
      ? ` (first at ${first.line === null ? `row ${first.row}` : `line ${first.line}`}: "${first.text}")`
      : "";
    rows.push(["Not numbers", `${formatNumber(summary.invalid)}${where}`]);
  }
  rows.push(["Distinct", formatNumber(summary.distinct)]);
  if (stats) {
    rows.push(
      ["Min", formatNumber(stats.min)],
      ["1st percentile", formatNumber(stats.p1)],
      ["25th percentile", formatNumber(stats.p25)],
      ["Median", formatNumber(stats.median)],
      ["Mean", formatNumber(stats.mean)],
      ["75th percentile", formatNumber(stats.p75)],
      ["99th percentile", formatNumber(stats.p99)],
      ["Max", formatNumber(stats.max)],
      ["Standard deviation", formatNumber(stats.std)],
    );
  }
  return (
    <table className="column-stats">
      <caption>Statistics of {summary.column}</caption>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td className="stat-value">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
