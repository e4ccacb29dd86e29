// Counts over time as stacked columns, one colour per series, with a legend, the span's start and end as axis labels,
// optional marks (a merge's insertion point), and a table of the same numbers for screen readers.
import { seriesColour } from "./grouped-bar-chart.js";

export interface TimelineData {
  /** Seconds since the epoch of the first bin's start. */
  start: number;
  binSeconds: number;
  series: Record<string, number[]>;
}

export interface TimelineMark {
  label: string;
  /** Seconds since the epoch. */
  at: number;
}

const isoSecond = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/** A bin's width in words: "1.5 s", "2 min", "3 h". */
export function binWidthText(seconds: number): string {
  if (seconds < 1) return `${Number((seconds * 1000).toPrecision(2))} ms`;
  if (seconds < 120) return `${Number(seconds.toPrecision(2))} s`;
  if (seconds < 7200) return `${Number((seconds / 60).toPrecision(2))} min`;
  return `${Number((seconds / 3600).toPrecision(2))} h`;
}

export function TimelineChart(props: {
  title: string;
  timeline: TimelineData;
  /** The series to stack, in order (each drawn in its own colour); others in `timeline.series` are left out. */
  stacked: string[];
  marks?: TimelineMark[];
  width?: number;
  height?: number;
}) {
  const { title, timeline, stacked, marks = [], width = 560, height = 160 } = props;
  const bins = Math.max(0, ...stacked.map((name) => timeline.series[name]?.length ?? 0));
  const totals = Array.from({ length: bins }, (_, b) =>
    stacked.reduce((sum, name) => sum + (timeline.series[name]?.[b] ?? 0), 0),
  );
  const max = Math.max(1, ...totals);
  const left = 48;
  const plotWidth = width - left - 8;
  const plotHeight = height - 24;
  const column = bins > 0 ? plotWidth / bins : plotWidth;
  const end = timeline.start + bins * timeline.binSeconds;
  const xOf = (seconds: number) => left + ((seconds - timeline.start) / (end - timeline.start || 1)) * plotWidth;
  return (
    <figure className="chart">
      <figcaption>
        {title} <small className="hint">(one column per {binWidthText(timeline.binSeconds)})</small>
      </figcaption>
      <ul className="chart-legend" aria-label={`${title}: legend`}>
        {stacked.map((name, s) => (
          <li key={name}>
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" rx="2" fill={seriesColour(s)} />
            </svg>{" "}
            {name}
          </li>
        ))}
      </ul>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        <text x={left - 6} y={10} textAnchor="end" fontSize="11" fill="currentColor">
          {max}
        </text>
        <text x={left - 6} y={plotHeight} textAnchor="end" fontSize="11" fill="currentColor">
          0
        </text>
        {totals.map((_, b) => {
          let y = plotHeight;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: bins are positions in time, stable for a timeline
            <g key={b}>
              {stacked.map((name, s) => {
                const value = timeline.series[name]?.[b] ?? 0;
                if (value === 0) return null;
                const h = (plotHeight * value) / max;
                y -= h;
                return (
                  <rect
                    key={name}
                    x={left + b * column}
                    y={y}
                    width={Math.max(1, column - 0.5)}
                    height={Math.max(0.5, h)}
                    fill={seriesColour(s)}
                    data-testid="timeline-column"
                  >
                    <title>{`${isoSecond(timeline.start + b * timeline.binSeconds)}: ${name} ${value}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
        {marks.map((mark) => (
          <g key={mark.label}>
            <line
              x1={xOf(mark.at)}
              x2={xOf(mark.at)}
              y1={0}
              y2={plotHeight}
              stroke="currentColor"
              strokeDasharray="4 3"
            />
            <text x={xOf(mark.at) + 4} y={10} fontSize="11" fill="currentColor">
              {mark.label}
            </text>
          </g>
        ))}
        <text x={left} y={height - 6} fontSize="11" fill="currentColor">
          {isoSecond(timeline.start)}
        </text>
        <text x={width - 8} y={height - 6} textAnchor="end" fontSize="11" fill="currentColor">
          {isoSecond(end)}
        </text>
      </svg>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            {stacked.map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {totals.map((total, b) =>
            total === 0 ? null : (
              // biome-ignore lint/suspicious/noArrayIndexKey: bins are positions in time
              <tr key={b}>
                <th scope="row">{isoSecond(timeline.start + b * timeline.binSeconds)}</th>
                {stacked.map((name) => (
                  <td key={name}>{timeline.series[name]?.[b] ?? 0}</td>
                ))}
              </tr>
            ),
          )}
        </tbody>
      </table>
    </figure>
  );
}
