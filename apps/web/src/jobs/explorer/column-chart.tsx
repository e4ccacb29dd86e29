// A column drawn: a histogram of its bins (numbers) or bars of its most frequent values (text), each bar stacked by
// group when the rows are split by label or class. The SVG is described by its caption; the same counts follow as a
// table for screen readers and for copying.
import type { ColumnSummary } from "@tracemill/contracts";
import { seriesColour } from "../../charts/grouped-bar-chart.js";
import { formatNumber } from "./table-outputs.js";

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 56;
const BOTTOM = 24;

interface Bar {
  /** The bin's start or the value itself: unique within a chart, unlike a bin's label once rounded. */
  key: string;
  label: string;
  /** The whole bar, or its parts per group. */
  parts: number[];
}

/** The bars to draw: one per bin or top value, split into the groups' counts when there are groups. */
function barsOf(summary: ColumnSummary): Bar[] {
  const split = summary.split;
  const parts = (i: number, total: number) => (split ? split.counts.map((counts) => counts[i] ?? 0) : [total]);
  if (summary.histogram) {
    return summary.histogram.bins.map((bin, i) => ({
      key: String(bin.from),
      label: `${formatNumber(bin.from)} – ${formatNumber(bin.to)}`,
      parts: parts(i, bin.count),
    }));
  }
  return (summary.top ?? []).map((value, i) => ({
    key: value.value,
    label: value.value,
    parts: parts(i, value.count),
  }));
}

export function captionOf(summary: ColumnSummary): string {
  const split = summary.split ? `, split by ${summary.split.by}` : "";
  if (summary.histogram) {
    const { bins, scale } = summary.histogram;
    return `${summary.column}: ${formatNumber(summary.count)} values in ${bins.length} bins, ${scale} scale${split}`;
  }
  const shown = summary.top?.length ?? 0;
  return `${summary.column}: the ${shown} most frequent of ${formatNumber(summary.distinct)} values${split}`;
}

export function ColumnChart({ summary }: { summary: ColumnSummary }) {
  const bars = barsOf(summary);
  const caption = captionOf(summary);
  // The groups in the colours the other charts give series; the whole in the accent colour, as a chart of one.
  const fills = summary.split ? summary.split.groups.map((_, g) => seriesColour(g)) : ["var(--accent)"];
  if (bars.length === 0) return <p>{summary.column} has no values to draw.</p>;
  return (
    <figure className="chart explorer-chart">
      <figcaption>{caption}</figcaption>
      {summary.histogram ? (
        <Histogram bars={bars} caption={caption} fills={fills} />
      ) : (
        <ValueBars bars={bars} caption={caption} fills={fills} />
      )}
      {summary.split && <Legend split={summary.split} fills={fills} />}
      <CountsTable summary={summary} bars={bars} />
    </figure>
  );
}

const total = (bar: Bar) => bar.parts.reduce((sum, n) => sum + n, 0);

function Histogram({ bars, caption, fills }: { bars: Bar[]; caption: string; fills: string[] }) {
  const max = Math.max(1, ...bars.map(total));
  const plot = HEIGHT - BOTTOM;
  const width = (WIDTH - LEFT - 8) / bars.length;
  const [first] = bars[0].label.split(" – ");
  const last = bars[bars.length - 1].label.split(" – ")[1];
  return (
    <svg
      className="explorer-svg"
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={caption}
    >
      <text x={LEFT - 6} y={12} fontSize="11" fill="currentColor" textAnchor="end">
        {formatNumber(max)}
      </text>
      <text x={LEFT - 6} y={plot} fontSize="11" fill="currentColor" textAnchor="end">
        0
      </text>
      {bars.map((bar, i) => {
        let top = plot;
        return (
          <g key={bar.key}>
            <title>{`${bar.label}: ${formatNumber(total(bar))}`}</title>
            {bar.parts.map((count, g) => {
              const h = ((plot - 8) * count) / max;
              top -= h;
              return (
                <rect
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one bar are the groups, in order
                  key={g}
                  x={LEFT + i * width}
                  y={top}
                  width={Math.max(1, width - 1)}
                  height={h}
                  fill={fills[g]}
                />
              );
            })}
          </g>
        );
      })}
      <line x1={LEFT} x2={WIDTH - 8} y1={plot} y2={plot} stroke="currentColor" />
      <text x={LEFT} y={HEIGHT - 6} fontSize="11" fill="currentColor">
        {first}
      </text>
      <text x={WIDTH - 8} y={HEIGHT - 6} fontSize="11" fill="currentColor" textAnchor="end">
        {last}
      </text>
    </svg>
  );
}

function ValueBars({ bars, caption, fills }: { bars: Bar[]; caption: string; fills: string[] }) {
  const row = 20;
  const labelWidth = 220;
  const height = bars.length * row + 8;
  const max = Math.max(1, ...bars.map(total));
  const span = WIDTH - labelWidth - 70;
  const maxChars = Math.floor(labelWidth / 7);
  return (
    <svg
      className="explorer-svg"
      width={WIDTH}
      height={height}
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={caption}
    >
      {bars.map((bar, i) => {
        let left = labelWidth;
        return (
          <g key={bar.key} transform={`translate(0 ${i * row + 4})`}>
            <text x={labelWidth - 6} y={13} textAnchor="end" fontSize="12" fill="currentColor">
              <title>{bar.label}</title>
              {bar.label.length > maxChars ? `${bar.label.slice(0, maxChars - 1)}…` : bar.label}
            </text>
            {bar.parts.map((count, g) => {
              const w = (span * count) / max;
              left += w;
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one bar are the groups, in order
              return <rect key={g} x={left - w} y={2} width={w} height={row - 6} fill={fills[g]} />;
            })}
            <text x={left + 6} y={13} fontSize="12" fill="currentColor">
              {formatNumber(total(bar))}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Legend({ split, fills }: { split: NonNullable<ColumnSummary["split"]>; fills: string[] }) {
  return (
    <ul className="chart-legend" aria-label={`Groups by ${split.by}`}>
      {split.groups.map((group, g) => (
        <li key={group.name}>
          <svg width="12" height="12" aria-hidden="true">
            <rect width="12" height="12" fill={fills[g]} />
          </svg>{" "}
          {group.name} ({formatNumber(group.count)})
        </li>
      ))}
    </ul>
  );
}

function CountsTable({ summary, bars }: { summary: ColumnSummary; bars: Bar[] }) {
  const groups = summary.split?.groups ?? [];
  return (
    <details className="chart-table">
      <summary>Counts as a table</summary>
      <table>
        <caption>{captionOf(summary)}</caption>
        <thead>
          <tr>
            <th scope="col">{summary.histogram ? "Bin" : "Value"}</th>
            <th scope="col">Count</th>
            {groups.map((group) => (
              <th key={group.name} scope="col">
                {`${summary.split?.by} ${group.name}`}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.key}>
              <th scope="row">{bar.label}</th>
              <td>{formatNumber(total(bar))}</td>
              {groups.length > 0 &&
                bar.parts.map((count, g) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: one cell per group, in the groups' order
                  <td key={g}>{formatNumber(count)}</td>
                ))}
            </tr>
          ))}
        </tbody>
      </table>
      {summary.otherValues > 0 && <p>Other values: {formatNumber(summary.otherValues)} rows.</p>}
    </details>
  );
}
